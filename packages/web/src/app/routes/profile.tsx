import { Link } from 'react-router';
import { FileText } from 'lucide-react';
import { Card, ErrorPanel, PageHeading, Spinner } from '../../components/ui/panels.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/auth.tsx';
import { useProfile } from '../../features/profile/api/get-profile.ts';
import { PasswordCard } from '../../features/profile/components/password-card.tsx';
import { ProfileCard } from '../../features/profile/components/profile-card.tsx';
import { ProfileForm } from '../../features/profile/components/profile-form.tsx';
import { SessionsCard } from '../../features/sessions/components/sessions-card.tsx';
import { TwoFactorPolicyCard } from '../../features/two-factor/components/policy-card.tsx';
import { BusinessSettingsCard } from '../../features/claims/components/business-settings-card.tsx';
import { TwoFactorCard } from '../../features/two-factor/components/two-factor-card.tsx';
import { BackupKeysCard } from '../../features/backup-keys/components/backup-keys-card.tsx';
import { DrawRandomnessCard } from '../../features/draw-randomness/components/draw-randomness-card.tsx';

/**
 * docs/product/screens.md#profile: who you are, Edit Profile, and Change Password; then sign-in
 * security: two-factor sign-in, the sessions, and for the admin the two-factor policy, the business
 * settings and the backup keys.
 */
export function ProfileRoute() {
  const { id, role } = useCurrentUser();
  const profile = useProfile(id);

  if (profile.isPending) return <Spinner />;
  if (profile.isError)
    return (
      <ErrorPanel
        message={errorMessage(profile.error, 'Failed to fetch profile')}
        onRetry={() => void profile.refetch()}
      />
    );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageHeading title="My Profile">
          Your name and shop as others see them, your logo and your password.
        </PageHeading>
        <Link
          to={`/statements/${id}`}
          data-testid="my-statement"
          className="inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50"
        >
          <FileText className="h-4 w-4" aria-hidden="true" />
          My statement
        </Link>
      </div>
      {/* Phone: who you are, the form, the password. Wide: the first and last stacked beside the form. */}
      <div className="grid items-start gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr]">
        <div className="lg:col-start-1 lg:row-start-1">
          <ProfileCard user={profile.data} />
        </div>
        <div className="lg:col-span-2 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <Card title="Edit Profile">
            <ProfileForm key={profile.data.id} profile={profile.data} />
          </Card>
        </div>
        <div className="lg:col-start-1 lg:row-start-2">
          <PasswordCard />
        </div>
      </div>
      {/* Sign-in security: two-factor (and the admin's policy) beside the sessions. */}
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="space-y-6">
          <TwoFactorCard />
          {role === 'admin' && <TwoFactorPolicyCard />}
          {role === 'admin' && <BusinessSettingsCard />}
        </div>
        <div className="space-y-6 lg:col-span-2">
          <SessionsCard />
          {role === 'admin' && <DrawRandomnessCard />}
          {role === 'admin' && <BackupKeysCard />}
        </div>
      </div>
    </div>
  );
}
