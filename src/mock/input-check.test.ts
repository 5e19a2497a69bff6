// Issue 32, items 2 and 4: the mock says what it will model of a photo, and whether 2–4 photos
// show one object, before anything is charged (GET /v1/mock/cutout and /v1/mock/views-check).
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CutoutCheckSchema,
  ErrorBodySchema,
  ViewsCheckSchema,
  type CutoutCheck,
} from '../contract/index.ts';
import { syntheticViews } from '../generator/views/synthetic-views.ts';
import { inScene } from '../testing/backdrops.ts';
import { photo } from '../testing/generator.ts';
import { solid } from '../testing/images.ts';
import { startTestMock, type TestMock } from '../testing/mock.ts';

const dataUri = (bytes: Uint8Array) =>
  `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;
const query = (urls: string[]) => urls.map((u) => `image_url=${encodeURIComponent(u)}`).join('&');

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock();
});
afterAll(() => mock.close());

async function cutout(bytes: Uint8Array): Promise<CutoutCheck> {
  const res = await mock.request(`/mock/cutout?${query([dataUri(bytes)])}`);
  expect(res.status).toBe(200);
  return CutoutCheckSchema.parse(await res.json());
}
async function viewsCheck(images: Uint8Array[]) {
  const res = await mock.request(`/mock/views-check?${query(images.map(dataUri))}`);
  expect(res.status).toBe(200);
  return ViewsCheckSchema.parse(await res.json());
}

describe('GET /v1/mock/cutout', () => {
  it('shows what is kept of a photo on a plain backdrop, as a picture of the photo’s shape', async () => {
    const robot = await photo('robot.png');
    const check = await cutout(robot);
    expect(check).toMatchObject({ usable: true, reason: null, warning: null, parts_dropped: 0 });
    expect(check.message).toBe(
      'Kiln will model the part left clear; the darkened backdrop is left out.',
    );
    expect(check.kept_share).toBeGreaterThan(0.05);
    expect(check.kept_share).toBeLessThan(0.9);
    // The overlay is a PNG of the photo's aspect: clear over the object, shaded elsewhere.
    const png = Buffer.from(check.overlay!.replace(/^data:image\/png;base64,/, ''), 'base64');
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const meta = await sharp(robot).metadata();
    expect(info.width / info.height).toBeCloseTo(meta.width! / meta.height!, 1);
    let clear = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] === 0) clear++;
    expect(clear / (info.width * info.height)).toBeCloseTo(check.kept_share!, 2);
  });

  it('says, in red, the surface behind the object and the things beside it that are left out', async () => {
    const chair = await photo('chair.png');
    const disc = await cutout(await inScene(chair, 'disc-behind'));
    expect(disc).toMatchObject({ usable: true, panel_dropped: true });
    expect(disc.message).toMatch(/shown in red: the plain surface behind it\.$/);
    const neighbours = await cutout(await inScene(chair, 'neighbours'));
    expect(neighbours.parts_dropped).toBe(2);
    expect(neighbours.message).toMatch(/shown in red: 2 things apart from it\.$/);
  });

  it('refuses a one-colour picture and bytes that are no image, with the sentence a task would fail with', async () => {
    const plain = await cutout(await solid(64, 64, 'png'));
    expect(plain).toMatchObject({ usable: false, reason: 'no_subject', overlay: null });
    expect(plain.message).toBe('The image shows no object: it is one plain colour.');
    const text = await mock.request(
      `/mock/cutout?${query([`data:image/png;base64,${Buffer.from('not an image').toString('base64')}`])}`,
    );
    expect(CutoutCheckSchema.parse(await text.json())).toMatchObject({
      usable: false,
      reason: 'not_an_image',
    });
  });

  it('names image_url when it is missing, empty, repeated or cannot be fetched; needs the key', async () => {
    for (const [path, code] of [
      ['/mock/cutout', 'missing_field'],
      ['/mock/cutout?image_url=', 'missing_field'],
      ['/mock/cutout?image_url=data:a,b&image_url=data:c,d', 'invalid_image_count'],
      ['/mock/cutout?image_url=ftp://example.invalid/x.png', 'image_download_failed'],
    ] as const) {
      const res = await mock.request(path);
      expect(res.status, path).toBe(400);
      expect(ErrorBodySchema.parse(await res.json()).error, path).toMatchObject({
        code,
        param: 'image_url',
      });
    }
    expect((await mock.request('/mock/cutout?image_url=data:a,b', { key: null })).status).toBe(401);
  });
});

describe('GET /v1/mock/views-check', () => {
  it('agrees for the four sides of one object, and for two of them', async () => {
    const chair = await syntheticViews('chair', 256, { background: '#d8d8d8' });
    const four = await viewsCheck(chair);
    expect(four).toMatchObject({ agree: true, disagreeing: [] });
    expect(four.message).toBe('These look like views of one object.');
    expect(four.views.map((v) => v.side)).toEqual(['front', 'right', 'back', 'left']);
    expect((await viewsCheck(chair.slice(0, 2))).agree).toBe(true);
  });

  it('warns when the views are different objects (a horse, a robot and a flamingo; four different things)', async () => {
    const three = await viewsCheck([
      await photo('horse.png'),
      await photo('robot.png'),
      await photo('flamingo.png'),
    ]);
    expect(three.agree).toBe(false);
    expect(three.message).toMatch(
      /^These may not be views of one object: the back \(image 3\) does not mirror the outline of the front \(image 1\)/,
    );
    const table = await syntheticViews('table', 256);
    const chair = await syntheticViews('chair', 256);
    const mixed = await viewsCheck([chair[0]!, chair[1]!, table[2]!, chair[3]!]);
    expect(mixed.agree).toBe(false);
    expect(mixed.disagreeing).toContainEqual(
      expect.objectContaining({ a: 0, b: 2, differs: expect.arrayContaining(['outline']) }),
    );
  });

  it('says which view cannot be modelled', async () => {
    const check = await viewsCheck([await photo('robot.png'), await solid(64, 64, 'png')]);
    expect(check.agree).toBe(false);
    expect(check.views[1]).toEqual({
      side: 'right',
      usable: false,
      problem: 'The image shows no object: it is one plain colour.',
    });
    expect(check.message).toBe('Image 2 cannot be modelled: choose another photo.');
  });

  it('takes 2 to 4 views, naming image_url otherwise', async () => {
    const one = await mock.request(`/mock/views-check?${query(['data:a,b'])}`);
    expect(one.status).toBe(400);
    expect(ErrorBodySchema.parse(await one.json()).error).toMatchObject({
      code: 'invalid_image_count',
      param: 'image_url',
    });
    const five = await mock.request(`/mock/views-check?${query(Array(5).fill('data:a,b'))}`);
    expect(five.status).toBe(400);
  });
});
