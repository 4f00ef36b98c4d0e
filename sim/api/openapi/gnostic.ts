// Encodes the v2 document as gnostic's openapi_v2.Document protobuf message, the
// form kubectl 1.27/1.28 (client-go's OpenAPISchema) asks for. Vendor extensions
// and enum values travel as YAML text in Any.yaml (JSON is valid YAML).

import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import type { Schema } from './definitions.ts';
import type { Json } from './documents.ts';

let documentType: protobuf.Type | undefined;

export function documentMessage(): protobuf.Type {
  if (!documentType) {
    const text = readFileSync(new URL('./openapiv2.proto', import.meta.url), 'utf8');
    documentType = protobuf.parse(text, { keepCase: true }).root.lookupType('openapi.v2.Document');
  }
  return documentType;
}

type Msg = Record<string, unknown>;

const anyOf = (v: unknown): Msg => ({ yaml: `${JSON.stringify(v)}\n` });

function extensions(o: Record<string, unknown>): Msg[] {
  return Object.entries(o)
    .filter(([k]) => k.startsWith('x-'))
    .map(([name, v]) => ({ name, value: anyOf(v) }));
}

function schemaMsg(s: Schema): Msg {
  const m: Msg = {};
  if (s.$ref) m._ref = s.$ref;
  if (s.format) m.format = s.format;
  if (s.description) m.description = s.description;
  if (s.required?.length) m.required = s.required;
  if (s.enum?.length) m.enum = s.enum.map(anyOf);
  if (s.additionalProperties) m.additional_properties = { schema: schemaMsg(s.additionalProperties) };
  if (s.type) m.type = { value: [s.type] };
  if (s.items) m.items = { schema: [schemaMsg(s.items)] };
  if (s.properties) m.properties = { additional_properties: Object.entries(s.properties).map(([name, v]) => ({ name, value: schemaMsg(v) })) };
  const ext = extensions(s as Record<string, unknown>);
  if (ext.length) m.vendor_extension = ext;
  return m;
}

function paramMsg(p: Json): Msg {
  if (p.in === 'body') {
    return { parameter: { body_parameter: { name: p.name, in: 'body', required: !!p.required, schema: schemaMsg(p.schema as Schema) } } };
  }
  const sub: Msg = { name: p.name, in: p.in, description: p.description, type: p.type, unique_items: !!p.uniqueItems, required: !!p.required };
  const key = p.in === 'path' ? 'path_parameter_sub_schema' : 'query_parameter_sub_schema';
  return { parameter: { non_body_parameter: { [key]: sub } } };
}

function operationMsg(o: Json): Msg {
  const responses = Object.entries(o.responses as Record<string, Json>).map(([code, r]) => ({
    name: code,
    value: { response: { description: r.description, ...(r.schema ? { schema: { schema: schemaMsg(r.schema as Schema) } } : {}) } },
  }));
  return {
    tags: o.tags,
    description: o.description,
    operation_id: o.operationId,
    produces: o.produces,
    consumes: o.consumes ?? [],
    schemes: o.schemes,
    parameters: (o.parameters as Json[]).map(paramMsg),
    responses: { response_code: responses },
    vendor_extension: extensions(o),
  };
}

function toMessage(doc: Json): Msg {
  const paths = Object.entries(doc.paths as Record<string, Json>).map(([name, item]) => {
    const value: Msg = { parameters: ((item.parameters as Json[] | undefined) ?? []).map(paramMsg) };
    for (const verb of ['get', 'put', 'post', 'delete', 'patch']) if (item[verb]) value[verb] = operationMsg(item[verb] as Json);
    return { name, value };
  });
  const info = doc.info as Json;
  return {
    swagger: doc.swagger,
    info: { title: info.title, version: info.version },
    paths: { path: paths },
    definitions: { additional_properties: Object.entries(doc.definitions as Record<string, Schema>).map(([name, s]) => ({ name, value: schemaMsg(s) })) },
    security_definitions: {
      additional_properties: [
        {
          name: 'BearerToken',
          value: { api_key_security: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer Token authentication' } },
        },
      ],
    },
    security: [{ additional_properties: [{ name: 'BearerToken', value: { value: [] } }] }],
  };
}

export function encodeV2(doc: Json): Buffer {
  const type = documentMessage();
  const msg = type.fromObject(toMessage(doc));
  return Buffer.from(type.encode(msg).finish());
}
