import { useState } from 'react';
import type { User } from '@lot/domain/schemas/users';
import { useRefreshUsers } from '../../features/users/api/get-scoped-users.ts';
import { HierarchyUsersScreen } from '../../features/users/components/hierarchy-users-screen.tsx';
import type { HierarchyFormKind } from '../../features/users/components/user-form-rules.ts';
import { TransferModal } from '../../features/transactions/components/transfer-modal.tsx';

/**
 * The super agent's and the agent's people screens (docs/product/screens.md#hierarchy-people-screens): the list, whose
 * Transfer opens the shared Transfer Funds dialog with the row's person chosen.
 */
export function HierarchyUsers({ kind, title }: { kind: HierarchyFormKind; title: string }) {
  const [receiver, setReceiver] = useState<User | null>(null);
  const refreshUsers = useRefreshUsers();
  return (
    <>
      <HierarchyUsersScreen kind={kind} title={title} onTransfer={setReceiver} />
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
