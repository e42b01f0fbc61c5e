/** /models: not rebuilt in the new console yet. */
import { Alert } from '../ui/Alert.tsx';

export function ModelsPage() {
  return <Alert kind="warning" title="/models">This page is not built yet.</Alert>;
}
