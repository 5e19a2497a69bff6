// The facts panel: what is in the GLB (read from its bytes), and the Khronos glTF-Validator's
// report on it (run in a worker, loaded only when the panel opens).
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { formatBytes } from '../../../formats/index.ts';
import type { OriginFact } from '../../lib/entry-format.ts';
import { formatCount, glbFacts, type GlbFacts } from './facts/glb-facts.ts';
import { validateGlb, type ValidationSummary } from './facts/validate.ts';

type Report =
  | { state: 'running' }
  | { state: 'done'; summary: ValidationSummary }
  | { state: 'failed'; message: string };

function metres(n: number): string {
  return n >= 1
    ? `${n.toFixed(2)} m`
    : n >= 0.01
      ? `${(n * 100).toFixed(1)} cm`
      : `${(n * 1000).toFixed(1)} mm`;
}

function readFacts(bytes: Uint8Array): GlbFacts | Error {
  try {
    return glbFacts(bytes);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** The model's size in words: from the file, else (compressed skinned vertices) the viewer's. */
function sizeText(facts: GlbFacts, posedSize: [number, number, number] | null): string {
  if (facts.bounds) return facts.bounds.size.map(metres).join(' × ');
  if (!facts.skinUnread) return 'no geometry';
  return posedSize ? posedSize.map(metres).join(' × ') : 'measured once the model is shown';
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** The validator's report on `bytes` (run in a worker; a newer file's report replaces it). */
function useValidation(bytes: Uint8Array): Report {
  const [report, setReport] = useState<{ bytes: Uint8Array; report: Report } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    validateGlb(bytes, { signal: controller.signal }).then(
      (summary) => setReport({ bytes, report: { state: 'done', summary } }),
      (e: unknown) => {
        if (controller.signal.aborted) return;
        setReport({
          bytes,
          report: { state: 'failed', message: e instanceof Error ? e.message : String(e) },
        });
      },
    );
    return () => controller.abort();
  }, [bytes]);
  return report?.bytes === bytes ? report.report : { state: 'running' };
}

/** What is in the file: counts, size, textures, animations, extensions, what made it. */
function FactList({
  facts,
  motionSize,
  posedSize,
  origin = [],
}: {
  origin?: readonly OriginFact[] | undefined;
  facts: GlbFacts;
  motionSize: [number, number, number] | null;
  posedSize: [number, number, number] | null;
}) {
  return (
    <dl>
      {/* Where it came from (its library entry), before what its file says (decision 0116). */}
      {origin.map((f) => (
        <Fact key={f.id} term={f.term} value={f.value} id={f.id} />
      ))}
      <Fact term="File size" value={formatBytes(facts.fileBytes)} id="file-size" />
      <Fact term="Triangles" value={formatCount(facts.triangles)} id="triangles" />
      <Fact term="Vertices" value={formatCount(facts.vertices)} id="vertices" />
      <Fact
        term="Meshes"
        value={`${formatCount(facts.meshes)} (${plural(facts.primitives, 'primitive')})`}
        id="meshes"
      />
      <Fact term="Materials" value={formatCount(facts.materials)} id="materials" />
      <Fact
        term={
          facts.posed || facts.skinUnread
            ? 'Size (W × H × D), as posed in the file'
            : 'Size (W × H × D)'
        }
        id="dimensions"
        value={sizeText(facts, posedSize)}
      />
      {motionSize && (
        <Fact
          term="Framed to, with its first clip's motion"
          id="framed-size"
          value={motionSize.map(metres).join(' × ')}
        />
      )}
      <Fact
        term={`Textures (${facts.textures.length})`}
        id="textures"
        value={
          facts.textures.length === 0 ? (
            'none'
          ) : (
            <ul>
              {facts.textures.map((t) => (
                <li key={t.index}>
                  {t.width !== null && t.height !== null
                    ? `${t.width} × ${t.height}`
                    : 'size unknown'}
                  {t.mimeType ? ` ${t.mimeType.replace('image/', '').toUpperCase()}` : ''}
                  {t.name ? ` · ${t.name}` : ''}
                </li>
              ))}
            </ul>
          )
        }
      />
      <Fact
        term={`Animations (${facts.animations.length})`}
        id="animations"
        value={
          facts.animations.length === 0
            ? 'none'
            : facts.animations
                .map((a, i) => `${a.name ?? `Clip ${i + 1}`} (${a.duration.toFixed(2)} s)`)
                .join(', ')
        }
      />
      <Fact
        term="glTF extensions"
        id="extensions"
        value={
          facts.extensionsUsed.length === 0 ? (
            'none'
          ) : (
            <ul>
              {facts.extensionsUsed.map((x) => (
                <li key={x}>
                  <code>{x}</code>
                  {facts.extensionsRequired.includes(x) ? ' (required)' : ''}
                </li>
              ))}
            </ul>
          )
        }
      />
      {facts.generator && <Fact term="Made with" value={facts.generator} id="generator" />}
    </dl>
  );
}

export default function FactsPanel({
  bytes,
  motionSize = null,
  posedSize = null,
  origin,
}: {
  bytes: Uint8Array;
  /** Where the model came from (made by, time taken, price), when it is a library entry's. */
  origin?: readonly OriginFact[] | undefined;
  /** The size the view is framed to when the playing clip moves the model beyond it (see scene). */
  motionSize?: [number, number, number] | null;
  /**
   * A skinned model's size as posed in the file, measured by the viewer on its decoded vertices:
   * shown when the bytes alone cannot say it (compressed skinned vertices).
   */
  posedSize?: [number, number, number] | null;
}) {
  const facts = useMemo(() => readFacts(bytes), [bytes]);
  const validation = useValidation(bytes);

  return (
    <section
      className="model-viewer__facts"
      aria-label="Facts about this file"
      data-testid="viewer-facts"
    >
      <h3>Facts</h3>
      {facts instanceof Error ? (
        <p className="error">{facts.message}</p>
      ) : (
        <FactList facts={facts} motionSize={motionSize} posedSize={posedSize} origin={origin} />
      )}
      <h3>Validation</h3>
      <div data-testid="viewer-validation" data-state={validation.state} aria-live="polite">
        {validation.state === 'running' && <p className="muted">Running the glTF validator…</p>}
        {validation.state === 'failed' && (
          <p className="error">The validator could not run: {validation.message}</p>
        )}
        {validation.state === 'done' && <Summary summary={validation.summary} />}
      </div>
    </section>
  );
}

function Fact({ term, value, id }: { term: string; value: ReactNode; id: string }) {
  return (
    <div data-fact={id}>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function Summary({ summary }: { summary: ValidationSummary }) {
  const { errors, warnings, infos, hints, messages } = summary;
  return (
    <>
      <p>
        <span className={errors ? 'severity-error' : undefined} data-testid="validation-errors">
          {plural(errors, 'error')}
        </span>
        ,{' '}
        <span className={warnings ? 'severity-warning' : undefined}>
          {plural(warnings, 'warning')}
        </span>
        , {plural(infos, 'info', 'infos')}, {plural(hints, 'hint')}
        {summary.truncated ? ' (stopped after the first 100 issues)' : ''}{' '}
        <span className="muted small">· glTF-Validator {summary.validatorVersion}</span>
      </p>
      {messages.length > 0 && (
        <ul>
          {messages.map((m, i) => (
            <li key={i}>
              <span className={`severity-${m.severity}`}>{m.severity}</span> <code>{m.code}</code>:{' '}
              {m.message}
              {m.pointer ? (
                <>
                  {' '}
                  <code className="muted">{m.pointer}</code>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
