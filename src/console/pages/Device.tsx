/** /device: not rebuilt in the new console yet. */
import { Alert } from '../ui/Alert.tsx';

export function DevicePage() {
  return <Alert kind="warning" title="/device">This page is not built yet.</Alert>;
}
