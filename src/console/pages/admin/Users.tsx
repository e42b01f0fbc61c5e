/** /admin/users: not rebuilt in the new console yet. */
import { Alert } from '../../ui/Alert.tsx';

export function AdminUsersPage() {
  return <Alert kind="warning" title="/admin/users">This page is not built yet.</Alert>;
}
