/** The client's batch ceilings are the API description's (one source of truth: the OpenAPI document). */
import { loadApiDocument } from '../../../contract/openapi';
import { MAX_CONVERT_ASINS, MAX_CONVERT_IDS } from '../../../emulator/service/convert';
import { ASIN_CONVERT_MAX_ASINS, CONVERT_MAX_IDS } from '../../../src/api/types';

test('CONVERT_MAX_IDS and ASIN_CONVERT_MAX_ASINS equal maxItems of the conversion requests (and the service checks the same)', () => {
  const doc = loadApiDocument();
  const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema.properties;
  expect(body('/api/v3/convert').ids.maxItems).toBe(CONVERT_MAX_IDS);
  expect(body('/api/v3/asin-convert').asins.maxItems).toBe(ASIN_CONVERT_MAX_ASINS);
  expect([MAX_CONVERT_IDS, MAX_CONVERT_ASINS]).toEqual([CONVERT_MAX_IDS, ASIN_CONVERT_MAX_ASINS]);
});
