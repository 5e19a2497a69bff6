import type { ESLint, Rule } from 'eslint';

export type FeatureGraph = Map<string, Map<string, string>>;
export function featureGraph(root: string): FeatureGraph;
export function featurePath(graph: FeatureGraph, from: string, to: string): string[] | null;
export function featureCycles(graph: FeatureGraph): string[][];
export const noFeatureCycle: Rule.RuleModule;
export const kilnPlugin: ESLint.Plugin;
