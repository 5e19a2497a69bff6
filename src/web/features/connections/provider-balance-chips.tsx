import { useProviderBalances, useProviders } from '../../api/providers.ts';
import { formatAmount, formatTime } from '../../lib/entry-format.ts';
import { Link } from '../../ui/link.tsx';
import { balanceSentence } from './balance-sentence.ts';

/**
 * The header's chip per connected provider: its balance in its own unit, as the vendor stated
 * it ("Meshy 970 credits", "fal $9.80"), as of when in its title; or that none can be read.
 */
export function ProviderBalanceChips() {
  const providers = useProviders();
  const names = providers.data?.map((p) => p.name) ?? [];
  const balances = useProviderBalances(names);
  if (balances.length === 0) return null;
  return (
    <>
      {balances.map(({ provider, query }) => {
        const label = providers.data?.find((p) => p.name === provider)?.label ?? provider;
        const b = query.data;
        const text = b
          ? b.amount === null
            ? `${label}: balance not readable`
            : `${label} ${formatAmount(b.amount, b.unit)}`
          : query.isError
            ? `${label}: balance not read`
            : `${label} …`;
        const title = b
          ? balanceSentence(b)
          : query.isError
            ? query.error.message
            : `Asking ${label} for the balance`;
        return (
          <Link
            key={provider}
            href="/connections"
            className="balance-chip provider-chip"
            data-testid={`balance-${provider}`}
            title={title}
            aria-label={`${text}${b ? ` (as of ${formatTime(b.as_of_ms)})` : ''}: connections`}
          >
            {text}
          </Link>
        );
      })}
    </>
  );
}
