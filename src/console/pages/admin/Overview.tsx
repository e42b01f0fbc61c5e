/** /admin: not rebuilt in the new console yet. */
import { Alert } from '../../ui/Alert.tsx';

export function AdminOverviewPage() {
  return <Alert kind="warning" title="/admin">This page is not built yet.</Alert>;
}
