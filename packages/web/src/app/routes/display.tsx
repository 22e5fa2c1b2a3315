import { useParams, useSearchParams } from 'react-router';
import { DisplayPage } from '../../features/display/components/display-page.tsx';
import { DEFAULT_THEME, THEMES, type ThemeName } from '../../lib/game/game-theme.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** /display/{code}?theme=…: the customer display of one game (no sign-in, outside the shell). */
export function DisplayRoute() {
  const { code = '' } = useParams();
  useDocumentTitle('Customer display');
  const [search] = useSearchParams();
  const asked = search.get('theme') ?? '';
  const theme = (THEMES as readonly string[]).includes(asked) ? (asked as ThemeName) : DEFAULT_THEME;
  return <DisplayPage key={code} code={code} themeName={theme} />;
}
