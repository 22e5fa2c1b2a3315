import { Placeholder } from './placeholder.tsx';

export function ProfileRoute() {
  return <Placeholder title="Profile" />;
}
