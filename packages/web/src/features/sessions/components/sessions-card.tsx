import { Laptop } from 'lucide-react';
import { MESSAGES } from '@lot/domain/messages';
import { Button } from '../../../components/ui/button.tsx';
import { Card, Spinner } from '../../../components/ui/panels.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { dateTime } from '../../../lib/format.ts';
import { useEndOtherSessions } from '../api/end-other-sessions.ts';
import { useEndSession } from '../api/end-session.ts';
import { useSessions } from '../api/get-sessions.ts';

/** Where the caller is signed in: device, address, last use; end one, or all but this one. */
export function SessionsCard() {
  const sessions = useSessions();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const toast = useToast();
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;

  return (
    <Card
      title="Sessions"
      actions={
        others > 0 && (
          <Button
            variant="secondary"
            disabled={endOthers.isPending}
            onClick={() =>
              endOthers.mutate(undefined, {
                onSuccess: () => toast.success(MESSAGES.otherSessionsEnded),
                onError: (error) => toast.error(errorMessage(error, 'Failed to end the sessions')),
              })
            }
          >
            End all other sessions
          </Button>
        )
      }
    >
      {sessions.isPending ? (
        <Spinner />
      ) : sessions.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {errorMessage(sessions.error, 'Failed to load sessions')}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="sessions">
          {sessions.data.map((session) => (
            <li key={session.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3 first:pt-0 last:pb-0">
              <span className="rounded-lg bg-slate-100 p-2 text-slate-500">
                <Laptop className="h-5 w-5" aria-hidden="true" />
              </span>
              <div className="min-w-0 flex-1 text-sm">
                <p className="font-medium text-slate-900">
                  {session.device}
                  {session.current && (
                    <span className="ml-2 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-700 ring-1 ring-emerald-200">
                      This device
                    </span>
                  )}
                </p>
                <p className="text-slate-500">
                  {session.address} · last used {dateTime(session.lastUsedAt)}
                </p>
              </div>
              {!session.current && (
                <Button
                  variant="ghost"
                  className="text-rose-700 hover:bg-rose-50 hover:text-rose-800"
                  disabled={end.isPending}
                  aria-label={`End session: ${session.device}, ${session.address}`}
                  onClick={() =>
                    end.mutate(session.id, {
                      onSuccess: () => toast.success(MESSAGES.sessionEnded),
                      onError: (error) => toast.error(errorMessage(error, 'Failed to end the session')),
                    })
                  }
                >
                  End
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
