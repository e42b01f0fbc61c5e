/** /admin/tokens: not rebuilt in the new console yet. */
import { Alert } from '../../ui/Alert.tsx';

export function AdminTokensPage() {
  return <Alert kind="warning" title="/admin/tokens">This page is not built yet.</Alert>;
}
