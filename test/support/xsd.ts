// JUnit validation against the Jenkins/xunit junit-10.xsd vendored in test/data.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const XSD = readFileSync(join(import.meta.dirname, '..', 'data', 'junit-10.xsd'), 'utf8');

/** xmllint's messages for a JUnit document; [] when it is valid. */
export async function xsdErrors(fileName: string, xml: string): Promise<string[]> {
  const r = await validateXML({ xml: [{ fileName, contents: xml }], schema: [XSD] });
  return r.errors.map(e => e.rawMessage);
}
