import { useAuth } from '../../lib/auth.tsx';
import { UnpaidPrizesScreen } from '../../features/claims/components/unpaid-prizes-screen.tsx';
import { useScopedUsers } from '../../features/users/api/get-scoped-users.ts';

/**
 * docs/product/screens.md#unpaid-prizes (/{role}/unpaid-prizes): the claims list, with the shops of
 * the caller's scope to filter by (a shop sees only its own, without the filter).
 */
export function UnpaidPrizesRoute() {
  const { user } = useAuth();
  const role = user?.role ?? 'user';
  const shops = useScopedUsers('user', role !== 'user');
  const options =
    role === 'user'
      ? null
      : (shops.data ?? [])
          .map((shop) => ({ id: shop.id, name: shop.shopName ?? shop.fullName }))
          .sort((a, b) => a.name.localeCompare(b.name));
  return <UnpaidPrizesScreen role={role} shops={options} shopsFailed={shops.isError} />;
}
