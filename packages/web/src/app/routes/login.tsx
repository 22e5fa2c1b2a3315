import { useState, type ChangeEvent, type FormEvent } from 'react';
import { z } from 'zod';
import { Navigate, useNavigate } from 'react-router';
import { BarChart3, Lock, ShieldCheck, Users } from 'lucide-react';
import { signinInputSchema, type SigninInput } from '@lot/domain/schemas/auth';
import { MESSAGES } from '@lot/domain/messages';
import { dashboardPath } from '@lot/domain/roles';
import { Button } from '../../components/ui/button.tsx';
import { FormError, TextField } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { TWO_FACTOR_SETUP_PATH } from '../guards.tsx';

/** docs/product/screens.md#login: after success it waits 500 ms, then goes to the role's dashboard. */
const REDIRECT_DELAY_MS = 500;

type Field = keyof SigninInput;
type Errors = Partial<Record<Field, string>>;

/** The schema's first message per field, as the other forms show them (zodResolver). */
function validate(values: SigninInput): { data?: SigninInput; errors: Errors } {
  const parsed = signinInputSchema.safeParse(values);
  if (parsed.success) return { data: parsed.data, errors: {} };
  const fieldErrors = z.flattenError(parsed.error).fieldErrors;
  return { errors: { username: fieldErrors.username?.[0], password: fieldErrors.password?.[0] } };
}

export function LoginRoute() {
  const { status, user, login, loginWithCode, notice } = useAuth();
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The first screen of every visit: two fields checked with the shared schema, without the form
  // library the other forms use (it alone would put /login over its 150 kB budget, bench/).
  const [values, setValues] = useState<SigninInput>({ username: '', password: '' });
  // Like the other forms: checked on submit, then again on every change until it passes.
  const [errors, setErrors] = useState<Errors | null>(null);
  // Two-factor sign-in: the password was right, the code step holds the server's challenge.
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);

  if (status === 'authenticated' && user && !busy) return <Navigate to={dashboardPath(user.role)} replace />;

  const change = (field: Field) => (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (errors) setErrors(validate(next).errors);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const checked = validate(values);
    setErrors(checked.errors);
    if (!checked.data) {
      const invalid = (['username', 'password'] as const).find((field) => checked.errors[field]);
      if (invalid) (form.elements.namedItem(invalid) as HTMLInputElement | null)?.focus();
      return;
    }
    const { username, password } = checked.data;
    setBusy(true);
    setFailure(null);
    try {
      const answer = await login(username, password);
      if ('challenge' in answer) {
        setChallenge(answer.challenge);
        setBusy(false);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, REDIRECT_DELAY_MS));
      navigate(answer.twoFactorSetupRequired ? TWO_FACTOR_SETUP_PATH : dashboardPath(answer.user.role), {
        replace: true,
      });
    } catch (error) {
      setFailure(
        error instanceof ApiError && error.message ? error.message : 'Login failed. Please check your credentials.',
      );
      setBusy(false);
    }
  };

  const onSubmitCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!challenge) return;
    const form = event.currentTarget;
    if (!code.trim()) {
      setCodeError(MESSAGES.twoFactorCodeRequired);
      (form.elements.namedItem('code') as HTMLInputElement | null)?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    setCodeError(null);
    try {
      const signedIn = await loginWithCode(challenge, code.trim());
      await new Promise((resolve) => setTimeout(resolve, REDIRECT_DELAY_MS));
      navigate(dashboardPath(signedIn.role), { replace: true });
    } catch (error) {
      const message = error instanceof ApiError && error.message ? error.message : MESSAGES.loginFailed;
      // A sign-in that took too long starts again from the password.
      if (error instanceof ApiError && message === MESSAGES.twoFactorChallengeExpired) {
        setChallenge(null);
        setCode('');
        setFailure(message);
      } else if (error instanceof ApiError && error.message === MESSAGES.twoFactorCodeInvalid) {
        setCodeError(message);
      } else {
        setFailure(message);
      }
      setBusy(false);
    }
  };

  const startOver = () => {
    setChallenge(null);
    setCode('');
    setCodeError(null);
    setFailure(null);
    setValues((v) => ({ ...v, password: '' }));
  };

  return (
    <div className="flex min-h-screen bg-slate-50">
      {/* A landmark of its own, so nothing on the page lies outside one. */}
      <aside
        aria-label="About LOT"
        className="relative hidden w-1/2 flex-col justify-between overflow-hidden bg-gradient-to-br from-indigo-700 via-indigo-600 to-violet-600 p-12 text-white lg:flex"
      >
        <span className="text-2xl font-black tracking-[0.3em]">LOT</span>
        <div>
          <h2 className="text-4xl font-bold leading-tight">Lottery Management System</h2>
          <p className="mt-4 max-w-md text-indigo-100">
            Run your number-game network from one place: balances down the hierarchy, BOCH BOCH games in every shop, and
            every sale on record.
          </p>
          <ul className="mt-10 space-y-4 text-indigo-50">
            <li className="flex items-center gap-3">
              <Users className="h-5 w-5" aria-hidden="true" /> Super agents, agents and shops in one hierarchy
            </li>
            <li className="flex items-center gap-3">
              <ShieldCheck className="h-5 w-5" aria-hidden="true" /> Every transfer recorded, every cent accounted for
            </li>
            <li className="flex items-center gap-3">
              <BarChart3 className="h-5 w-5" aria-hidden="true" /> Sales history and commission at a glance
            </li>
          </ul>
        </div>
        <p className="text-sm text-indigo-200">© {new Date().getFullYear()} LOT</p>
      </aside>
      {/* Top-aligned, so a message appearing never shifts the fields (centred, it would). */}
      <main className="flex flex-1 items-start justify-center p-6 pt-[12vh] lg:pt-[18vh]">
        <div className="w-full max-w-sm">
          <div className="mb-8 text-center lg:text-left">
            <span className="text-2xl font-black tracking-[0.3em] text-indigo-600 lg:hidden">LOT</span>
            <h1 className="mt-4 text-2xl font-bold text-slate-900 lg:mt-0">
              {challenge ? 'Two-factor sign-in' : 'Sign in to your account'}
            </h1>
            <p className="mt-1 text-sm text-slate-600">
              {challenge ? MESSAGES.twoFactorCodeNeeded : 'Lottery Management System'}
            </p>
          </div>
          {notice && !failure && (
            <p
              role="status"
              className="mb-5 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
            >
              {notice}
            </p>
          )}
          {challenge ? (
            <form onSubmit={onSubmitCode} noValidate className="space-y-5">
              <TextField
                label="Authentication code"
                hint="The 6-digit code from your app, or one of your recovery codes"
                autoComplete="one-time-code"
                autoFocus
                spellCheck={false}
                name="code"
                value={code}
                onChange={(event) => {
                  setCode(event.target.value);
                  setCodeError(null);
                }}
                error={codeError ?? undefined}
              />
              <Button type="submit" className="w-full py-2.5" disabled={busy}>
                <ShieldCheck className="h-4 w-4" aria-hidden="true" />
                {busy ? 'Verifying...' : 'Verify'}
              </Button>
              <FormError message={failure} />
              <Button variant="ghost" className="w-full" onClick={startOver} disabled={busy}>
                Back to sign in
              </Button>
            </form>
          ) : (
            <form onSubmit={onSubmit} noValidate className="space-y-5">
              <TextField
                label="Username"
                autoComplete="username"
                autoFocus
                name="username"
                value={values.username}
                onChange={change('username')}
                error={errors?.username}
              />
              <TextField
                label="Password"
                type="password"
                autoComplete="current-password"
                name="password"
                value={values.password}
                onChange={change('password')}
                error={errors?.password}
              />
              <Button type="submit" className="w-full py-2.5" disabled={busy}>
                <Lock className="h-4 w-4" aria-hidden="true" />
                {busy ? 'Signing in...' : 'Sign in'}
              </Button>
              <FormError message={failure} />
            </form>
          )}
          <p className="mt-8 text-center text-xs text-slate-600">
            By signing in you agree to the Terms of Service and Privacy Policy. Access is for authorised operators only.
          </p>
        </div>
      </main>
    </div>
  );
}
