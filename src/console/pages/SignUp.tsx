/** /signup: not rebuilt in the new console yet. */
import { Alert } from '../ui/Alert.tsx';

export function SignUpPage() {
  return <Alert kind="warning" title="/signup">This page is not built yet.</Alert>;
}
