/** A placeholder until the web foundation issue brings the router, sign-in and screens. */
export function App() {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="max-w-md rounded-2xl bg-white p-8 text-center shadow">
        <p className="text-sm font-semibold tracking-widest text-indigo-600">LOT</p>
        <h1 className="mt-2 text-2xl font-bold text-slate-900">Lottery Management System</h1>
        <p className="mt-4 text-slate-600">
          The API is running. Its documentation is at{' '}
          <a className="text-indigo-600 underline" href="/api/docs">
            /api/docs
          </a>
          .
        </p>
      </div>
    </main>
  );
}
