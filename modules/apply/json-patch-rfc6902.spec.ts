/** RFC 6902 Appendix A, every example: the patch applies as the RFC says, or fails as it says. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch } from './json-patch.js';
import { PatchRejectedError } from './patch-errors.js';

interface Example {
  section: string;
  doc: string;
  patch: string;
  /** expected document, or undefined when the RFC says the patch fails */
  result?: string;
}

const examples: Example[] = [
  {
    section: 'A.1 adding an object member',
    doc: '{"foo":"bar"}',
    patch: '[{"op":"add","path":"/baz","value":"qux"}]',
    result: '{"baz":"qux","foo":"bar"}',
  },
  {
    section: 'A.2 adding an array element',
    doc: '{"foo":["bar","baz"]}',
    patch: '[{"op":"add","path":"/foo/1","value":"qux"}]',
    result: '{"foo":["bar","qux","baz"]}',
  },
  {
    section: 'A.3 removing an object member',
    doc: '{"baz":"qux","foo":"bar"}',
    patch: '[{"op":"remove","path":"/baz"}]',
    result: '{"foo":"bar"}',
  },
  {
    section: 'A.4 removing an array element',
    doc: '{"foo":["bar","qux","baz"]}',
    patch: '[{"op":"remove","path":"/foo/1"}]',
    result: '{"foo":["bar","baz"]}',
  },
  {
    section: 'A.5 replacing a value',
    doc: '{"baz":"qux","foo":"bar"}',
    patch: '[{"op":"replace","path":"/baz","value":"boo"}]',
    result: '{"baz":"boo","foo":"bar"}',
  },
  {
    section: 'A.6 moving a value',
    doc: '{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}',
    patch: '[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]',
    result: '{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}',
  },
  {
    section: 'A.7 moving an array element',
    doc: '{"foo":["all","grass","cows","eat"]}',
    patch: '[{"op":"move","from":"/foo/1","path":"/foo/3"}]',
    result: '{"foo":["all","cows","eat","grass"]}',
  },
  {
    section: 'A.8 testing a value: success',
    doc: '{"baz":"qux","foo":["a",2,"c"]}',
    patch: '[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]',
    result: '{"baz":"qux","foo":["a",2,"c"]}',
  },
  {
    section: 'A.9 testing a value: error',
    doc: '{"baz":"qux"}',
    patch: '[{"op":"test","path":"/baz","value":"bar"}]',
  },
  {
    section: 'A.10 adding a nested member object',
    doc: '{"foo":"bar"}',
    patch: '[{"op":"add","path":"/child","value":{"grandchild":{}}}]',
    result: '{"foo":"bar","child":{"grandchild":{}}}',
  },
  {
    section: 'A.11 ignoring unrecognized elements',
    doc: '{"foo":"bar"}',
    patch: '[{"op":"add","path":"/baz","value":"qux","xyz":123}]',
    result: '{"foo":"bar","baz":"qux"}',
  },
  {
    section: 'A.12 adding to a nonexistent target',
    doc: '{"foo":"bar"}',
    patch: '[{"op":"add","path":"/baz/bat","value":"qux"}]',
  },
  {
    // a repeated "op" member: the last one wins in JSON.parse as in Go, and removing /baz fails
    section: 'A.13 invalid JSON patch document',
    doc: '{"foo":"bar"}',
    patch: '[{"op":"add","path":"/baz","value":"qux","op":"remove"}]',
  },
  {
    section: 'A.14 ~ escape ordering',
    doc: '{"/":9,"~1":10}',
    patch: '[{"op":"test","path":"/~01","value":10}]',
    result: '{"/":9,"~1":10}',
  },
  {
    section: 'A.15 comparing strings and numbers',
    doc: '{"/":9,"~1":10}',
    patch: '[{"op":"test","path":"/~01","value":"10"}]',
  },
  {
    section: 'A.16 adding an array value',
    doc: '{"foo":["bar"]}',
    patch: '[{"op":"add","path":"/foo/-","value":["abc","def"]}]',
    result: '{"foo":["bar",["abc","def"]]}',
  },
];

describe('JSON patch: RFC 6902 appendix A', () => {
  for (const ex of examples) {
    it(ex.section, () => {
      const doc = JSON.parse(ex.doc);
      const patch = JSON.parse(ex.patch);
      if (ex.result === undefined) {
        assert.throws(() => applyJsonPatch(doc, patch), PatchRejectedError);
      } else {
        assert.deepEqual(applyJsonPatch(doc, patch), JSON.parse(ex.result));
      }
      assert.deepEqual(doc, JSON.parse(ex.doc), 'the document is not changed');
      assert.deepEqual(patch, JSON.parse(ex.patch), 'the patch is not changed');
    });
  }
});
