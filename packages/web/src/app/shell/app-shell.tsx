import { useCallback, useState } from 'react';
import { Outlet } from 'react-router';
import { Header } from './header.tsx';
import { Sidebar } from './sidebar.tsx';

/** The frame of every signed-in screen: sidebar, sticky header, the screen. Printed, only the screen. */
export function AppShell() {
  const [sidebarOpen, setSidebarOpen] = useState(false);
  // Stable, so the sidebar's Escape listener is not added again on every render.
  const closeSidebar = useCallback(() => setSidebarOpen(false), []);
  return (
    <div className="min-h-screen bg-slate-50 print:min-h-0 print:bg-white">
      <Sidebar open={sidebarOpen} onClose={closeSidebar} />
      <div className="md:pl-64 print:pl-0">
        <Header onMenu={() => setSidebarOpen(true)} />
        <main className="mx-auto max-w-7xl p-4 sm:p-6 lg:p-8 print:max-w-none print:p-0">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
