/** /: not rebuilt in the new console yet. */
import { Alert } from '../ui/Alert.tsx';

export function DashboardPage() {
  return <Alert kind="warning" title="/">This page is not built yet.</Alert>;
}
