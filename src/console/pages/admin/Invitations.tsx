/** /admin/invitations: not rebuilt in the new console yet. */
import { Alert } from '../../ui/Alert.tsx';

export function AdminInvitationsPage() {
  return <Alert kind="warning" title="/admin/invitations">This page is not built yet.</Alert>;
}
