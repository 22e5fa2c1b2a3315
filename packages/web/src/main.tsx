import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { createAppRouter } from './app/router.tsx';
import './index.css';

const element = document.getElementById('root');
if (!element) throw new Error('missing #root');
const root = createRoot(element);
// Three tasks rather than one: evaluating the bundle, starting the router (which begins fetching
// the screen's chunks, so it comes first) and React's first render (scheduled by render()). On a
// cold visit each takes 20-35 ms of the main thread; together they made one task far over the
// 50 ms after which a page stops answering input in time (Total Blocking Time, bench/web.ts).
setTimeout(() => {
  const router = createAppRouter();
  root.render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
});
