/** /key: not rebuilt in the new console yet. */
import { Alert } from '../ui/Alert.tsx';

export function KeyConsolePage() {
  return <Alert kind="warning" title="/key">This page is not built yet.</Alert>;
}
