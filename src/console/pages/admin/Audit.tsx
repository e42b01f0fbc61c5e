/** /admin/audit: not rebuilt in the new console yet. */
import { Alert } from '../../ui/Alert.tsx';

export function AdminAuditPage() {
  return <Alert kind="warning" title="/admin/audit">This page is not built yet.</Alert>;
}
