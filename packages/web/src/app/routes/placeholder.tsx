import { Construction } from 'lucide-react';
import { Card } from '../../components/ui/panels.tsx';

/** A screen whose issue has not landed yet. */
export function Placeholder({ title }: { title: string }) {
  return (
    <Card>
      <div className="flex flex-col items-center gap-3 py-10 text-center">
        <Construction className="h-10 w-10 text-amber-500" aria-hidden="true" />
        <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
        <p className="max-w-md text-slate-500">
          This screen is on its way. Use the menu to reach the parts that are ready.
        </p>
      </div>
    </Card>
  );
}
