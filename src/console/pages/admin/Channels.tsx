/** /admin/channels: not rebuilt in the new console yet. */
import { Alert } from '../../ui/Alert.tsx';

export function AdminChannelsPage() {
  return <Alert kind="warning" title="/admin/channels">This page is not built yet.</Alert>;
}
