/** /admin/logs: not rebuilt in the new console yet. */
import { Alert } from '../../ui/Alert.tsx';

export function AdminLogsPage() {
  return <Alert kind="warning" title="/admin/logs">This page is not built yet.</Alert>;
}
