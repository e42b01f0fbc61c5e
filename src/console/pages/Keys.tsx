/** /keys: not rebuilt in the new console yet. */
import { Alert } from '../ui/Alert.tsx';

export function KeysPage() {
  return <Alert kind="warning" title="/keys">This page is not built yet.</Alert>;
}
