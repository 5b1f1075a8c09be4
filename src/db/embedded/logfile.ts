import { crc32 } from 'node:zlib';
import { BSON, type Document } from 'bson';

/** How every BSON document is decoded here: regexes stay BSON regexes until a query needs them. */
export const decodeOptions = { bsonRegExp: true } as const;

const HEADER_BYTES = 8;

/** A record: length (u32 LE), CRC-32 of the body (u32 LE), then the body as BSON. */
export function encodeRecord(record: Document): Buffer {
  const body = BSON.serialize(record);
  const framed = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  framed.writeUInt32LE(body.length, 0);
  framed.writeUInt32LE(crc32(body), 4);
  framed.set(body, HEADER_BYTES);
  return framed;
}

export class CorruptLogError extends Error {
  override name = 'CorruptLogError';
}

/**
 * Calls `onRecord` for each intact record and returns how many bytes they span. A damaged
 * record at the end (a write cut short by a crash) ends the scan; damage followed by more
 * data is corruption and throws.
 */
export function scanRecords(
  file: string,
  bytes: Buffer,
  onRecord: (record: Document) => void,
): number {
  let offset = 0;
  while (offset < bytes.length) {
    const damage = damageAt(bytes, offset);
    if (damage) {
      if (damage.atEnd) return offset;
      throw new CorruptLogError(`${file}: damaged record at byte ${offset}: ${damage.reason}`);
    }
    const length = bytes.readUInt32LE(offset);
    const body = bytes.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + length);
    onRecord(BSON.deserialize(body, decodeOptions));
    offset += HEADER_BYTES + length;
  }
  return offset;
}

function damageAt(bytes: Buffer, offset: number): { atEnd: boolean; reason: string } | undefined {
  if (bytes.length - offset < HEADER_BYTES) return { atEnd: true, reason: 'truncated header' };
  const length = bytes.readUInt32LE(offset);
  const end = offset + HEADER_BYTES + length;
  if (length < 5)
    return {
      atEnd: bytes.subarray(offset).every((byte) => byte === 0),
      reason: `bad length ${length}`,
    };
  if (end > bytes.length) return { atEnd: true, reason: 'truncated body' };
  const body = bytes.subarray(offset + HEADER_BYTES, end);
  if (crc32(body) !== bytes.readUInt32LE(offset + 4) || body.readInt32LE(0) !== length) {
    return { atEnd: end === bytes.length, reason: 'checksum mismatch' };
  }
  return undefined;
}
