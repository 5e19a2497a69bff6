// Minimal types for the parts of the (untyped, CommonJS) gltf-validator package that the
// generator's tests use.
declare module 'gltf-validator' {
  export interface ValidationOptions {
    uri?: string;
    format?: 'glb' | 'gltf';
    externalResourceFunction?: (uri: string) => Promise<Uint8Array>;
    writeTimestamp?: boolean;
    maxIssues?: number;
    ignoredIssues?: string[];
    onlyIssues?: string[];
    severityOverrides?: Record<string, 0 | 1 | 2 | 3>;
  }

  export interface ValidationMessage {
    code: string;
    message: string;
    /** 0 error, 1 warning, 2 information, 3 hint. */
    severity: 0 | 1 | 2 | 3;
    pointer?: string;
    offset?: number;
  }

  export interface ValidationReport {
    uri: string;
    mimeType: string;
    validatorVersion: string;
    issues: {
      numErrors: number;
      numWarnings: number;
      numInfos: number;
      numHints: number;
      messages: ValidationMessage[];
      truncated: boolean;
    };
    info?: {
      version: string;
      generator?: string;
      resources?: { pointer: string; mimeType?: string; storage: string; byteLength?: number }[];
      hasTextures: boolean;
      materialCount: number;
      drawCallCount: number;
      totalVertexCount: number;
      totalTriangleCount: number;
      maxUVs: number;
      maxAttributes: number;
    };
  }

  export function validateBytes(
    data: Uint8Array,
    options?: ValidationOptions,
  ): Promise<ValidationReport>;
  export function validateString(
    json: string,
    options?: ValidationOptions,
  ): Promise<ValidationReport>;
  export function version(): string;
  export function supportedExtensions(): string[];
}
