/** /topup: not rebuilt in the new console yet. */
import { Alert } from '../ui/Alert.tsx';

export function TopUpPage() {
  return <Alert kind="warning" title="/topup">This page is not built yet.</Alert>;
}
