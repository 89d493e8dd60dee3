/**
 * GGUF format constants (GGUF v2/v3, as written by llama.cpp's gguf library): metadata
 * value types, GGML tensor types with their block and byte sizes, and the llama.cpp
 * `general.file_type` names. Shared by the reader (validation, metadata) and the writer.
 */

export const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
export const GGUF_DEFAULT_ALIGNMENT = 32;

export enum GgufValueType {
  UINT8 = 0,
  INT8 = 1,
  UINT16 = 2,
  INT16 = 3,
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
  UINT64 = 10,
  INT64 = 11,
  FLOAT64 = 12,
}

/** Bytes taken by one fixed-size scalar of the given type (undefined for string/array). */
export function scalarSize(type: GgufValueType): number | undefined {
  switch (type) {
    case GgufValueType.UINT8:
    case GgufValueType.INT8:
    case GgufValueType.BOOL:
      return 1;
    case GgufValueType.UINT16:
    case GgufValueType.INT16:
      return 2;
    case GgufValueType.UINT32:
    case GgufValueType.INT32:
    case GgufValueType.FLOAT32:
      return 4;
    case GgufValueType.UINT64:
    case GgufValueType.INT64:
    case GgufValueType.FLOAT64:
      return 8;
    default:
      return undefined;
  }
}

export interface GgmlTypeInfo {
  readonly name: string;
  /** Elements per block (1 for plain types). */
  readonly blockSize: number;
  /** Bytes per block. */
  readonly typeSize: number;
}

/** GGML tensor types that llama.cpp can load (ids 4, 5 and 31–33, 36–38 are retired). */
export const GGML_TYPES: ReadonlyMap<number, GgmlTypeInfo> = new Map<number, GgmlTypeInfo>(
  (
    [
      [0, 'F32', 1, 4],
      [1, 'F16', 1, 2],
      [2, 'Q4_0', 32, 18],
      [3, 'Q4_1', 32, 20],
      [6, 'Q5_0', 32, 22],
      [7, 'Q5_1', 32, 24],
      [8, 'Q8_0', 32, 34],
      [9, 'Q8_1', 32, 36],
      [10, 'Q2_K', 256, 84],
      [11, 'Q3_K', 256, 110],
      [12, 'Q4_K', 256, 144],
      [13, 'Q5_K', 256, 176],
      [14, 'Q6_K', 256, 210],
      [15, 'Q8_K', 256, 292],
      [16, 'IQ2_XXS', 256, 66],
      [17, 'IQ2_XS', 256, 74],
      [18, 'IQ3_XXS', 256, 98],
      [19, 'IQ1_S', 256, 50],
      [20, 'IQ4_NL', 32, 18],
      [21, 'IQ3_S', 256, 110],
      [22, 'IQ2_S', 256, 82],
      [23, 'IQ4_XS', 256, 136],
      [24, 'I8', 1, 1],
      [25, 'I16', 1, 2],
      [26, 'I32', 1, 4],
      [27, 'I64', 1, 8],
      [28, 'F64', 1, 8],
      [29, 'IQ1_M', 256, 56],
      [30, 'BF16', 1, 2],
      [34, 'TQ1_0', 256, 54],
      [35, 'TQ2_0', 256, 66],
      [39, 'MXFP4', 32, 17],
      [40, 'NVFP4', 64, 36],
      [41, 'Q1_0', 128, 18],
    ] as const
  ).map(([id, name, blockSize, typeSize]) => [id, { name, blockSize, typeSize }]),
);

/** The tensor types the GGUF writer can produce. */
export const GgmlType = { F32: 0, F16: 1, Q8_0: 8 } as const;

/** llama.cpp `general.file_type` (LLAMA_FTYPE_*) names. */
export const FILE_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: 'F32',
  1: 'F16',
  2: 'Q4_0',
  3: 'Q4_1',
  7: 'Q8_0',
  8: 'Q5_0',
  9: 'Q5_1',
  10: 'Q2_K',
  11: 'Q3_K_S',
  12: 'Q3_K_M',
  13: 'Q3_K_L',
  14: 'Q4_K_S',
  15: 'Q4_K_M',
  16: 'Q5_K_S',
  17: 'Q5_K_M',
  18: 'Q6_K',
  19: 'IQ2_XXS',
  20: 'IQ2_XS',
  21: 'Q2_K_S',
  22: 'IQ3_XS',
  23: 'IQ3_XXS',
  24: 'IQ1_S',
  25: 'IQ4_NL',
  26: 'IQ3_S',
  27: 'IQ3_M',
  28: 'IQ2_S',
  29: 'IQ2_M',
  30: 'IQ4_XS',
  31: 'IQ1_M',
  32: 'BF16',
  36: 'TQ1_0',
  37: 'TQ2_0',
  38: 'MXFP4_MOE',
};

/** Bytes a tensor of `type` with `dims` (ne0 first) occupies, or an error message. */
export function tensorByteSize(type: number, dims: readonly number[]): number | string {
  const info = GGML_TYPES.get(type);
  if (!info) return `unknown tensor type ${type}`;
  const elements = dims.reduce((a, b) => a * b, 1);
  if (dims[0] % info.blockSize !== 0) return `first dimension ${dims[0]} is not a multiple of the ${info.name} block size ${info.blockSize}`;
  return (elements / info.blockSize) * info.typeSize;
}

export function alignUp(offset: number, alignment: number): number {
  return Math.ceil(offset / alignment) * alignment;
}
