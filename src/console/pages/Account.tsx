/** /account: not rebuilt in the new console yet. */
import { Alert } from '../ui/Alert.tsx';

export function AccountPage() {
  return <Alert kind="warning" title="/account">This page is not built yet.</Alert>;
}
