/** /admin/codes: not rebuilt in the new console yet. */
import { Alert } from '../../ui/Alert.tsx';

export function AdminCodesPage() {
  return <Alert kind="warning" title="/admin/codes">This page is not built yet.</Alert>;
}
