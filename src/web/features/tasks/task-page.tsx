import { useEffect } from 'react';
import { Link } from '../../ui/link.tsx';
import { TaskDetail } from './task-detail.tsx';
import { useTask } from '../../api/tasks.ts';
import { progressOf } from '../../../contract/index.ts';

export function TaskPage({ id }: { id: string }) {
  const task = useTask(id);
  const t = task.data;
  useEffect(() => {
    document.title = t
      ? t.status === 'pending'
        ? `${progressOf(t)}% · Kiln`
        : `${t.status === 'completed' ? 'Model ready' : 'Failed'} · Kiln`
      : 'Task · Kiln';
  }, [t]);
  return (
    <main className="page task-page">
      <p>
        <Link href="/gallery">← Gallery</Link>
      </p>
      <TaskDetail id={id} heading="h1" />
    </main>
  );
}
