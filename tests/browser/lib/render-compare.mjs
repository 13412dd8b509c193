// What the software renderer's browser tests share: the page's comparison of the element's
// picture with an iq.render() image.


// In the page: the element's picture (renderFrame + toBlob) and iq.render()'s, compared.
export async function installCompare(page) {
  await page.evaluate(() => {
    window.iqCompare = async (viewer, image) => {
      const blob = await viewer.toBlob();
      const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const g = canvas.getContext('2d', { willReadFrequently: true });
      g.drawImage(bitmap, 0, 0);
      const a = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const b = image.pixels;
      if (bitmap.width !== image.width || bitmap.height !== image.height) return { size: [bitmap.width, bitmap.height, image.width, image.height] };
      let agree = 0; let inA = 0; let inB = 0; let both = 0; let diff = 0;
      for (let i = 0; i < a.length; i += 4) {
        const ia = a[i + 3] > 127; const ib = b[i + 3] > 127;
        agree += ia === ib; inA += ia; inB += ib;
        if (a[i + 3] === 255 && b[i + 3] === 255) {
          both++;
          diff += (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2])) / 3;
        }
      }
      return { silhouette: agree / (a.length / 4), inA, inB, color: both ? diff / both : 0 };
    };
  });
}
