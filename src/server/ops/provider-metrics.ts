// Each vendor's adapter, every call counted and timed by provider, operation and outcome (never by
// key: keys are per artist and unbounded).
import { ProviderError, type ProviderAdapter } from '../../providers/types.ts';
import type { ConfiguredProvider } from '../providers/registry.ts';
import type { Metrics } from './metrics.ts';

type Operation = 'models' | 'create' | 'get' | 'continue' | 'find_continued' | 'balance';

export function observedProvider(p: ConfiguredProvider, metrics: Metrics): ConfiguredProvider {
  const a = p.adapter;
  const timed = <T>(operation: Operation, call: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const done = (outcome: string) => {
      metrics.providerRequests.inc({ provider: p.name, operation, outcome });
      metrics.providerDuration.observe(
        { provider: p.name, operation },
        (performance.now() - started) / 1000,
      );
    };
    return call().then(
      (value) => {
        done('ok');
        return value;
      },
      (err: unknown) => {
        done(err instanceof ProviderError ? err.kind : 'error');
        throw err;
      },
    );
  };
  const adapter: ProviderAdapter = {
    name: a.name,
    label: a.label,
    recognisesKey: (key) => a.recognisesKey(key),
    models: (key) => timed('models', () => a.models(key)),
    create: (key, model, input, options) =>
      timed('create', () => a.create(key, model, input, options)),
    get: (key, ref, signal) => timed('get', () => a.get(key, ref, signal)),
    balance: (key, signal) => timed('balance', () => a.balance(key, signal)),
    ...(a.continue
      ? {
          continue: (
            key: string,
            ref: string,
            options?: Parameters<NonNullable<ProviderAdapter['continue']>>[2],
          ) => timed('continue', () => a.continue!(key, ref, options)),
        }
      : {}),
    ...(a.findContinued
      ? {
          findContinued: (key: string, ref: string) =>
            timed('find_continued', () => a.findContinued!(key, ref)),
        }
      : {}),
  };
  return { ...p, adapter };
}
