import { useParams } from 'react-router';
import { VerifyPage } from '../../features/verify/components/verify-page.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** /verify/{code}: a game's public proof, for anyone with the code (no sign-in, outside the shell). */
export function VerifyRoute() {
  const { code = '' } = useParams();
  useDocumentTitle('Verify a game');
  return <VerifyPage code={code} />;
}
