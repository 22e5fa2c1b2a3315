import { useState } from 'react';
import type { User } from '@lot/domain/schemas/users';
import { useRefreshUsers } from '../../features/users/api/get-scoped-users.ts';
import { HierarchyUsersScreen } from '../../features/users/components/hierarchy-users-screen.tsx';
import { TransferModal } from '../../features/transactions/components/transfer-modal.tsx';

/** Spec screen 10: the super agent's own agents (the server forces their parent to the super agent). Transfer opens the shared Transfer Funds dialog with the row's person chosen. */
export function SuperagentAgentsRoute() {
  const [receiver, setReceiver] = useState<User | null>(null);
  const refreshUsers = useRefreshUsers();
  return (
    <>
      <HierarchyUsersScreen kind="superagent-agent" title="Agents" onTransfer={setReceiver} />
      <TransferModal
        open={receiver !== null}
        receiver={receiver}
        onClose={() => setReceiver(null)}
        // The row's balance changed: reload the list.
        onTransferred={() => void refreshUsers()}
      />
    </>
  );
}
