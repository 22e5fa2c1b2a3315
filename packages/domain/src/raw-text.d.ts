/** Vite's `?raw` imports: draw.test.ts reads docs/lot-draw-1.md this way (the domain uses no Node API). */
declare module '*.md?raw' {
  const text: string;
  export default text;
}
