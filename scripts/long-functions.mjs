// Long functions are split into named steps (decision 0106): ESLint's own max-lines-per-function,
// except that a list of tests is not a function to hold in one's head: the callback of a
// `describe(…)`, and a function that only declares describe blocks (a suite built by named
// functions), are not measured. Each test in them still is.
import { builtinRules } from 'eslint/use-at-your-own-risk';

const core = /** @type {import('eslint').Rule.RuleModule} */ (
  builtinRules.get('max-lines-per-function')
);

/** The names along a callee: `test.describe.serial` → test, describe, serial; `describe.each(…)(…)` → describe, each. */
function calleeNames(callee) {
  if (callee.type === 'Identifier') return [callee.name];
  if (callee.type === 'MemberExpression')
    return [
      ...calleeNames(callee.object),
      ...(callee.property.type === 'Identifier' ? [callee.property.name] : []),
    ];
  if (callee.type === 'CallExpression') return calleeNames(callee.callee);
  return [];
}

/** A call of `describe`, `describe.each(…)`, `test.describe` and the like. */
const isDescribeCall = (node) =>
  node?.type === 'CallExpression' && calleeNames(node.callee).includes('describe');

/** True for a function given to a describe call, or whose body only declares describe blocks. */
function isListOfTests(node) {
  const fn = node.type === 'MethodDefinition' || node.type === 'Property' ? node.value : node;
  if (isDescribeCall(fn.parent) && fn.parent.arguments.includes(fn)) return true;
  if (fn.body.type !== 'BlockStatement') return isDescribeCall(fn.body);
  const statements = fn.body.body;
  return (
    statements.length > 0 &&
    statements.every((s) => s.type === 'ExpressionStatement' && isDescribeCall(s.expression))
  );
}

/** @type {import('eslint').Rule.RuleModule} */
export const maxLinesPerFunction = {
  meta: {
    ...core.meta,
    docs: {
      description:
        'A function fits in one head: at most so many lines; a list of tests is not measured (decision 0106).',
    },
    messages: {
      exceed:
        '{{name}} has too many lines ({{lineCount}}). Maximum allowed is {{maxLines}}: split it into named steps, or list it in LONG_FUNCTIONS in eslint.config.js with its reason (decision 0106).',
    },
  },
  create(context) {
    const report = (descriptor) => {
      if ('node' in descriptor && descriptor.node && isListOfTests(descriptor.node)) return;
      context.report(descriptor);
    };
    return core.create(Object.create(context, { report: { value: report } }));
  },
};
