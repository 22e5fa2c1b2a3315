import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ImageOff, ImageUp, Save, Trash2, Undo2, X } from 'lucide-react';
import { z } from 'zod';
import { MESSAGES } from '@lot/domain/messages';
import { fullNameSchema, LOGO_MAX_BYTES, LOGO_MIME_TYPES, type User } from '@lot/domain/schemas/users';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useUpdateProfile } from '../api/update-profile.ts';

/** The form's own view of the rules: the server applies the same ones (domain schemas/users.ts). */
const profileFormSchema = z.object({
  fullName: fullNameSchema,
  shopName: z.string().trim().max(100, MESSAGES.shopNameMax),
});
type ProfileFormValues = z.infer<typeof profileFormSchema>;

/**
 * "JPG, PNG, GIF up to 5MB" (docs/product/runtime-and-security.md#logos). Checked here only to
 * answer at once, before a 5 MB upload;
 * the server checks the bytes themselves and has the last word.
 */
const LOGO_HINT = 'JPG, PNG, GIF up to 5MB';

function checkLogo(file: File): string | null {
  if (!(LOGO_MIME_TYPES as readonly string[]).includes(file.type)) return MESSAGES.logoNotImage;
  if (file.size > LOGO_MAX_BYTES) return MESSAGES.logoTooLarge;
  return null;
}

const formatSize = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

type Chosen = { file: File; url: string };

/** Edit Profile: full name, shop name and the logo, saved together as one multipart PUT. */
export function ProfileForm({ profile }: { profile: User }) {
  const toast = useToast();
  const update = useUpdateProfile();
  const logoId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  // The preview's object URL is released when another file replaces it and when the form goes away.
  useEffect(() => {
    if (!chosen) return;
    return () => URL.revokeObjectURL(chosen.url);
  }, [chosen]);

  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ProfileFormValues>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: { fullName: profile.fullName, shopName: profile.shopName ?? '' },
  });

  function choose(file: File | null) {
    setChosen(file ? { file, url: URL.createObjectURL(file) } : null);
  }

  function onLogoChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again is a change too.
    event.target.value = '';
    if (!file) return;
    const problem = checkLogo(file);
    setLogoError(problem);
    choose(problem ? null : file);
    if (!problem) setRemoveLogo(false);
  }

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    setLogoError(null);
    try {
      const { user } = await update.mutateAsync({
        userId: profile.id,
        ...values,
        logo: chosen?.file ?? null,
        removeLogo,
      });
      reset({ fullName: user.fullName, shopName: user.shopName ?? '' });
      choose(null);
      setRemoveLogo(false);
      toast.success(MESSAGES.profileUpdated);
    } catch (error) {
      if (!(error instanceof ApiError)) return setFailure(errorMessage(error, 'Failed to update profile'));
      const fields = error.fieldErrors ?? {};
      if (fields.fullName) setError('fullName', { message: fields.fullName });
      if (fields.shopName) setError('shopName', { message: fields.shopName });
      // A refused logo (too large, not an image) is about the logo even without field errors.
      const aboutLogo = fields.logo ?? (error.status === 413 || error.status === 415 ? error.message : undefined);
      if (aboutLogo) setLogoError(aboutLogo);
      if (!fields.fullName && !fields.shopName && !aboutLogo)
        setFailure(errorMessage(error, 'Failed to update profile'));
    }
  });

  const busy = update.isPending;
  const status = chosen
    ? `${chosen.file.name} (${formatSize(chosen.file.size)}), not saved yet`
    : removeLogo
      ? 'Your logo will be removed when you save'
      : profile.hasLogo
        ? 'Current logo'
        : 'No logo yet: your initial is shown instead';

  return (
    <form
      onSubmit={(event) => {
        // A new attempt: the last server message goes, also when the form's own check stops this one.
        setFailure(null);
        void onSubmit(event);
      }}
      noValidate
      className="space-y-6"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Full Name"
          autoComplete="name"
          required
          error={errors.fullName?.message}
          {...register('fullName')}
        />
        <TextField
          label="Shop Name (Optional)"
          autoComplete="organization"
          placeholder="e.g. Corner Shop"
          error={errors.shopName?.message}
          {...register('shopName')}
        />
      </div>

      <div>
        <label htmlFor={logoId} className="mb-1 block text-sm font-medium text-slate-700">
          Logo (Optional)
        </label>
        <div
          className={`flex flex-col items-center gap-4 rounded-xl border border-dashed p-4 sm:flex-row ${
            logoError ? 'border-rose-300 bg-rose-50/40' : 'border-slate-300 bg-slate-50'
          }`}
        >
          {chosen && brokenUrl === chosen.url ? (
            // The browser cannot draw it; the server reads the bytes and has the last word.
            <span
              role="img"
              aria-label="Logo preview unavailable"
              className="inline-flex h-16 w-16 shrink-0 items-center justify-center rounded-full bg-slate-200 text-slate-500"
            >
              <ImageOff className="h-6 w-6" aria-hidden="true" />
            </span>
          ) : chosen ? (
            <img
              src={chosen.url}
              alt="Logo preview"
              onError={() => setBrokenUrl(chosen.url)}
              className="h-16 w-16 shrink-0 rounded-full bg-white object-cover shadow-sm ring-2 ring-white"
            />
          ) : (
            <Avatar
              userId={profile.id}
              fullName={profile.fullName}
              hasLogo={profile.hasLogo && !removeLogo}
              size="lg"
            />
          )}
          <div className="min-w-0 flex-1 text-center sm:text-left">
            <p className="truncate text-sm font-medium text-slate-900">{status}</p>
            <p id={`${logoId}-hint`} className="text-xs text-slate-500">
              {LOGO_HINT}
            </p>
            <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
              <input
                id={logoId}
                type="file"
                accept={LOGO_MIME_TYPES.join(',')}
                className="peer sr-only"
                aria-invalid={logoError ? true : undefined}
                aria-describedby={logoError ? `${logoId}-hint ${logoId}-error` : `${logoId}-hint`}
                onChange={onLogoChange}
              />
              <label
                htmlFor={logoId}
                className="inline-flex cursor-pointer items-center justify-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-600"
              >
                <ImageUp className="h-4 w-4" aria-hidden="true" />
                {chosen || profile.hasLogo ? 'Change image' : 'Choose image'}
              </label>
              {chosen && (
                <Button variant="secondary" aria-label="Remove preview" onClick={() => choose(null)}>
                  <X className="h-4 w-4" aria-hidden="true" /> Remove
                </Button>
              )}
              {!chosen && profile.hasLogo && !removeLogo && (
                <Button variant="secondary" onClick={() => setRemoveLogo(true)}>
                  <Trash2 className="h-4 w-4 text-rose-500" aria-hidden="true" /> Remove logo
                </Button>
              )}
              {!chosen && removeLogo && (
                <Button variant="secondary" onClick={() => setRemoveLogo(false)}>
                  <Undo2 className="h-4 w-4" aria-hidden="true" /> Keep logo
                </Button>
              )}
            </div>
          </div>
        </div>
        {logoError && (
          <p id={`${logoId}-error`} role="alert" className="mt-1 text-sm text-rose-600">
            {logoError}
          </p>
        )}
      </div>

      <FormError message={failure} />
      <div className="flex justify-end border-t border-slate-100 pt-5">
        <Button type="submit" disabled={busy} className="w-full sm:w-auto">
          <Save className="h-4 w-4" aria-hidden="true" />
          {busy ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
