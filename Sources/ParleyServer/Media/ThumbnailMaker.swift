import Foundation
import ParleyCore
import ParleyProtocol
internal import CPNG
internal import CTurboJPEG

/// Makes the JPEG thumbnail of a JPEG or PNG image (`ThumbnailRule`): decoded with its
/// header checked first (at most `maxPixels`, so a small file that claims a huge canvas is
/// refused before anything is allocated for it), scaled down by area averaging, encoded at
/// quality 80. A JPEG is decoded at the smallest DCT scale that still covers the
/// thumbnail, which keeps a large photo's decode small and fast. Blocking: run it on the
/// blocking pool, never on an event loop.
struct ThumbnailMaker: Sendable {
    /// Most pixels (width × height) of an image the maker decodes.
    var maxPixels: Int
    /// JPEG quality of the thumbnail (1–100).
    var quality: Int32 = 80

    /// Why an image has no thumbnail.
    enum Failure: Error, Equatable {
        /// More than `maxPixels` by its header.
        case tooManyPixels(width: Int, height: Int)
        /// Not a JPEG or PNG this maker can decode (corrupt, truncated, another format).
        case undecodable(String)
        /// The encoder failed.
        case encoding(String)
    }

    /// An image as 8-bit RGB rows, no padding.
    struct Pixels {
        var width: Int
        var height: Int
        var rgb: [UInt8]
    }

    /// The JPEG thumbnail of the JPEG or PNG image in `bytes`, and its size.
    func thumbnail(of bytes: [UInt8]) throws(Failure) -> (jpeg: [UInt8], width: Int, height: Int) {
        let target = { (width: Int, height: Int) in ThumbnailRule.size(width: width, height: height) }
        let decoded: Pixels
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            decoded = try decodeJPEG(bytes, coveringAtLeast: target)
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            decoded = try decodePNG(bytes)
        } else {
            throw .undecodable("not a JPEG or PNG image")
        }
        let size = target(decoded.width, decoded.height)
        let small = Self.scaled(decoded, toWidth: size.width, height: size.height)
        return (try encodeJPEG(small), small.width, small.height)
    }

    private func checkPixels(width: Int, height: Int) throws(Failure) {
        guard width > 0, height > 0 else { throw .undecodable("the image has no pixels") }
        guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixels, width <= 1 << 20, height <= 1 << 20 else {
            throw .tooManyPixels(width: width, height: height)
        }
    }

    // MARK: JPEG

    func decodeJPEG(_ bytes: [UInt8], coveringAtLeast target: (Int, Int) -> (width: Int, height: Int)) throws(Failure) -> Pixels {
        guard let handle = tjInitDecompress() else { throw .undecodable("cannot start the JPEG decoder") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw .undecodable(Self.message(handle)) }
        try checkPixels(width: Int(width), height: Int(height))
        // The smallest DCT scale whose result still covers the thumbnail.
        let wanted = target(Int(width), Int(height))
        var count: Int32 = 0
        var scaledWidth = width, scaledHeight = height
        if let factors = tjGetScalingFactors(&count) {
            for factor in UnsafeBufferPointer(start: factors, count: Int(count)) {
                let w = (width * factor.num + factor.denom - 1) / factor.denom
                let h = (height * factor.num + factor.denom - 1) / factor.denom
                if Int(w) >= wanted.width, Int(h) >= wanted.height, Int(w) * Int(h) < Int(scaledWidth) * Int(scaledHeight) {
                    (scaledWidth, scaledHeight) = (w, h)
                }
            }
        }
        var rgb = [UInt8](repeating: 0, count: Int(scaledWidth) * Int(scaledHeight) * 3)
        let result = bytes.withUnsafeBufferPointer { input in
            rgb.withUnsafeMutableBufferPointer { output in
                tjDecompress2(handle, input.baseAddress, UInt(input.count), output.baseAddress, scaledWidth, 0, scaledHeight,
                              Int32(TJPF_RGB.rawValue), 0)
            }
        }
        // A warning (a truncated file, say) still gives a usable picture; an error does not.
        guard result == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else { throw .undecodable(Self.message(handle)) }
        return Pixels(width: Int(scaledWidth), height: Int(scaledHeight), rgb: rgb)
    }

    func encodeJPEG(_ pixels: Pixels) throws(Failure) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw .encoding("cannot start the JPEG encoder") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = pixels.rgb.withUnsafeBufferPointer { input in
            tjCompress2(handle, input.baseAddress, Int32(pixels.width), 0, Int32(pixels.height), Int32(TJPF_RGB.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), quality, 0)
        }
        defer { if let output { tjFree(output) } }
        guard result == 0, let output else { throw .encoding(Self.message(handle)) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    private static func message(_ handle: tjhandle) -> String {
        tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown JPEG error"
    }

    // MARK: PNG

    func decodePNG(_ bytes: [UInt8]) throws(Failure) -> Pixels {
        var image = png_image()
        let begun = bytes.withUnsafeBytes { buffer in parley_png_begin(&image, buffer.baseAddress, buffer.count) }
        guard begun != 0 else {
            let reason = Self.message(image)
            png_image_free(&image)
            throw .undecodable(reason)
        }
        do {
            try checkPixels(width: Int(image.width), height: Int(image.height))
        } catch {
            png_image_free(&image)
            throw error
        }
        var rgb = [UInt8](repeating: 0, count: parley_png_rgb_size(&image))
        let finished = rgb.withUnsafeMutableBytes { buffer in parley_png_finish_rgb(&image, buffer.baseAddress) }
        guard finished != 0 else { throw .undecodable(Self.message(image)) }
        return Pixels(width: Int(image.width), height: Int(image.height), rgb: rgb)
    }

    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    // MARK: Scaling

    /// `pixels` scaled down to `width` × `height` by averaging the source area each
    /// destination pixel covers (a box filter: no aliasing, no ringing, all integers).
    static func scaled(_ pixels: Pixels, toWidth width: Int, height: Int) -> Pixels {
        guard width < pixels.width || height < pixels.height else { return pixels }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let sourceWidth = pixels.width, sourceHeight = pixels.height
        pixels.rgb.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let top = y * sourceHeight / height
                    let bottom = max(top + 1, (y + 1) * sourceHeight / height)
                    for x in 0..<width {
                        let left = x * sourceWidth / width
                        let right = max(left + 1, (x + 1) * sourceWidth / width)
                        var red = 0, green = 0, blue = 0
                        for row in top..<bottom {
                            var index = (row * sourceWidth + left) * 3
                            for _ in left..<right {
                                red += Int(source[index])
                                green += Int(source[index + 1])
                                blue += Int(source[index + 2])
                                index += 3
                            }
                        }
                        let count = (bottom - top) * (right - left)
                        let at = (y * width + x) * 3
                        target[at] = UInt8((red + count / 2) / count)
                        target[at + 1] = UInt8((green + count / 2) / count)
                        target[at + 2] = UInt8((blue + count / 2) / count)
                    }
                }
            }
        }
        return Pixels(width: width, height: height, rgb: out)
    }
}
