import './public-link.css';
import { THIS_COMPUTER_ONLY } from './reach.ts';

/** Says that a public link opens on this computer only, and how to make one others can open. */
export function ThisComputerOnly() {
  const w = THIS_COMPUTER_ONLY;
  return (
    <p className="small this-computer-only" data-testid="this-computer-only">
      <strong>{w.lead}</strong> {w.body} <code>{w.example}</code>, {w.after}
    </p>
  );
}
