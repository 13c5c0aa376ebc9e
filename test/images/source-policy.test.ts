/** Where images may come from: the address ranges, the URL rules and the NZF_IMAGE_HOSTS setting. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { checkImageHosts } from "../../src/core/config.js";
import { requestImage } from "../../src/images/image-request.js";
import { checkedLookup, imageUrlRefusal, isPublicAddress } from "../../src/images/source-policy.js";

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "fe80::1",
    "fd00:ec2::254",
    "64:ff9b::7f00:1",
    "2002:7f00:1::",
    "not an address",
  ])("refuses %s", (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(["8.8.8.8", "151.101.1.1", "2606:4700::1111", "::ffff:8.8.8.8"])("takes %s", (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );
});

describe("imageUrlRefusal", () => {
  const policy = { repository: "nzf-live", hosts: ["media.nzf.org.au", "127.0.0.1:4567"] };
  it.each([
    "https://images.prismic.io/nzf-live/abc_photo.jpg?auto=format",
    "https://media.nzf.org.au/photo.jpg",
    "http://127.0.0.1:4567/photo.jpg",
  ])("takes %s", (url) => expect(imageUrlRefusal(url, policy)).toBeNull());

  it.each([
    ["http://images.prismic.io/nzf-live/a.jpg", /over https only/],
    ["https://images.prismic.io/nzf-other/a.jpg", /not on the repository's path/],
    ["https://images.prismic.io/nzf-live-evil/a.jpg", /not on the repository's path/],
    ["https://media.nzf.org.au:8443/photo.jpg", /not images\.prismic\.io\/nzf-live or one of/],
    ["http://127.0.0.1:4568/photo.jpg", /is not a public address \(loopback\)/],
    ["https://user:pw@images.prismic.io/nzf-live/a.jpg", /carries credentials/],
    ["data:image/png;base64,AAAA", /data: URL, not http/],
    ["//images.prismic.io/nzf-live/a.jpg", /not an absolute URL/],
  ])("refuses %s", (url, why) => expect(imageUrlRefusal(url, policy)).toMatch(why));
});

describe("checkedLookup", () => {
  it("fails a name that resolves to a loopback address", async () => {
    const error = await new Promise<Error | null>((resolve) => checkedLookup("localhost", {}, (e) => resolve(e)));
    expect(error?.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), not a public address \(loopback\)/);
  });
});

describe("requestImage", () => {
  it("follows a redirect on the same host, and no more than three", async () => {
    const server = createServer((req, res) => {
      const n = Number(req.url!.slice(1));
      if (n > 0) res.writeHead(302, { location: `/${n - 1}` }).end();
      else res.writeHead(200).end("image");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const policy = { hosts: [host] };
    try {
      const answer = await requestImage(`http://${host}/3`, policy, AbortSignal.timeout(5000));
      expect(answer).toEqual({ ok: true, bytes: Buffer.from("image") });
      await expect(requestImage(`http://${host}/4`, policy, AbortSignal.timeout(5000))).rejects.toMatchObject({
        code: "IMAGE_REFUSED",
        message: expect.stringContaining("redirects more than 3 times"),
      });
    } finally {
      server.close();
    }
  });
});

describe("NZF_IMAGE_HOSTS", () => {
  it("reads hosts as a URL writes them", () => {
    expect(checkImageHosts(" Media.NZF.org.au, 127.0.0.1:4567 ,[::1]:8080,", "NZF_IMAGE_HOSTS")).toEqual([
      "media.nzf.org.au",
      "127.0.0.1:4567",
      "[::1]:8080",
    ]);
    expect(checkImageHosts(undefined, "NZF_IMAGE_HOSTS")).toEqual([]);
  });

  it.each(["cdn.example.org/images", "https://cdn.example.org", "cdn.example.org:443", "a b", "user@cdn.example.org"])(
    "refuses %s, naming the setting",
    (value) =>
      expect(() => checkImageHosts(value, "--image-hosts")).toThrow(
        expect.objectContaining({ code: "CONFIG_INVALID", subject: "--image-hosts" }),
      ),
  );
});
