/** /admin/models: not rebuilt in the new console yet. */
import { Alert } from '../../ui/Alert.tsx';

export function AdminModelPricesPage() {
  return <Alert kind="warning" title="/admin/models">This page is not built yet.</Alert>;
}
