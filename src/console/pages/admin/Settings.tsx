/** /admin/settings: not rebuilt in the new console yet. */
import { Alert } from '../../ui/Alert.tsx';

export function AdminSettingsPage() {
  return <Alert kind="warning" title="/admin/settings">This page is not built yet.</Alert>;
}
