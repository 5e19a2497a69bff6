// The tasks feature's public entry: what the studio page shows of tasks beside the generate form.
export { TaskCard } from './task-card.tsx';
export { SyncWaitCard, type SyncWait } from './sync-wait.tsx';
export { TaskDetail } from './task-detail.tsx';
