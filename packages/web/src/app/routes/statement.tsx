import { useParams } from 'react-router';
import { ErrorPanel } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { StatementScreen } from '../../features/statements/components/statement-screen.tsx';

/** docs/product/screens.md#statement: /statements/:userId, anyone's whom the caller may read (the server decides). */
export function StatementRoute() {
  const { userId } = useParams();
  const { id } = useCurrentUser();
  const target = Number(userId);
  if (!Number.isInteger(target) || target < 1) return <ErrorPanel message="User not found" />;
  return <StatementScreen key={target} userId={target} own={target === id} />;
}
