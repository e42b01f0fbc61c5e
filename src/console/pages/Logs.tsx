/** /logs: not rebuilt in the new console yet. */
import { Alert } from '../ui/Alert.tsx';

export function LogsPage() {
  return <Alert kind="warning" title="/logs">This page is not built yet.</Alert>;
}
