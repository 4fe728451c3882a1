/// Inputs the corpus lacks, embedded as bytes (made once with the vips command line).
enum EmbeddedFixtures {
    /// A 32×32 CMYK JPEG with no ICC profile (`vips icc_transform … cmyk`, then stripped): catalog/coffee
    /// scaled down; its pixel (16, 16) is about (185, 150, 139) in sRGB.
    static let cmykJPEG: [UInt8] = Array(Base64.decode("""
        /9j/7gAOQWRvYmUAZAAAAAAA/9sAQwAGBAUGBQQGBgUGBwcGCAoQCgoJCQoUDg8MEBcUGBgXFBYWGh0lHxobIxwWFiAsICMm
        JykqKRkfLTAtKDAlKCko/8AAFAgAIAAgBEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//E
        ALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2
        Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrC
        w8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAA4EQwBNAFkASwAAPwD6lt4EgjCoPqT1P1rA0yO88XeL
        7OxuL5ZtSvDsWR8FUjGWbAHAAAY4GP1r588F+HrjxZ4r0/R4pkW4vHI3vysaAFnYj0Cqxx7V23gzwrp2jRJpnhu3jjRjia7c
        bi57kt3PsOKkr1Gy03wZog8ltPguuzXV+d7y++MgKPQAV7HZP8OvDkn2T+xrK7QHabzVf3sk2P4guQqg9gBXXwQaZZscQrIS
        eZZvmZvf0A9qKuap4G0PX7FpvDax2N8BlFic+TKf7rKc7c9iK1NW+G/hHxvpbXHg9INL1jG6IW8h+zzt2R0JOzPQMvGeoNXz
        Z211Fm1xHJ2C9G9sdqK82u7K40jUJbe92iSEgMivuCnr1rxi70q60PWJbLUFVJ7chXjV8hG4OM+vNZcg8i386ReeyE4x65pi
        sS2e1eYfDrxVJ4b8dWHiG5hluLaGUrchRz5cisjY7ZwSQPaqPw08Sp4S8b6brdzA9xaws0dwifeMciMj49wrEgeoFUY75dLV
        LlIS0EHWNBj5OjY98E0+vZIPA1pqyvq8E58Q2twxaO7gG9QvZSg5jYDAKkAg1ua38PtV3vqenLN4h0i4bdb6lYRmZHXsHUZa
        NwMAowBBGK29L0bR9WtxeRzC/V+jbuF9tvY+x5o6VuaNbQ+AHOtahLJp2jRqXeCUkGZwMqkSHkscdBxjnjFdP8N7PUfBGpR+
        JNdS40jw/AC8qXAMbXTjlI4Y2wWdiMccAZJIxS6idM8LxrdTXIgjz8sDPlpCOdqA8n+nWkU5FeSeGvFzeJNVv21hkW7mle5U
        9mDMSV+q549vpXn8mvtr2sX17qRRLq5uHuT/AHW3MSV/DPHt9BWcXee2We4IEijc+ehz/hUbEqmQa80tnMl9DaGUm2STJC8b
        hnJIHckdPwrl4sGRUdiYwcnHcd8V5z8TNevNN0K5FgdjEbA/14zSZION2SBznv8AlXT+GdOllW5vtK1W906QkBfIkKOvJyCV
        I3KBgA8ZOeOK6XwtBciSe40TV7vTbjaAgik2OeehZWBIHy88ZJ6cV5p451+Tw5qOnwaZqdxdXJtla9kQ+UgkI/h2nPTkg+oq
        GZ5wgdFVdsmGyc7k9R6c/wAu/Su2vfA2oDw2+r3+tLPcTn7K1zLc+axV1YBiSCQozhsHrkjPFbGueGtabRZfEGpao08yTfZJ
        Jp7oyyMjAgNgjKpyVOT1zjPFO07U9ROgQeKEzIqzYmiklLyTIpO7LEEqvGMEjJ4xVscYzXmfhHMHiC1l+RghJIJ4PB71wlk4
        ju4nIBCsDg9K9+1DVIrbw/FdyfKboRpFG/BLMN2D7gA5+lVyxhASUbl4AKivT/Gnwua71CR9KaCy1tAJHsQREshz/rISSBsP
        XaSNvIBPCjufE3gqa3vpIUCW+poA72owobnG+PJ+4eD7cjORtHiGq6rd+CJZPCHxBsprrTkUrY6nEu4tD/CCP4gOn95enPFK
        NmCwKfXIrnRLqOhrGt34avRIE8uZpIvKVj3xjqMkmqkd62k2sRn0CRnRQrzyxCIbvYgYI9+9cBZ6BHrBllg17SreMudkc94F
        bb24bBqOZYiV8187W3hQehrQurTxz42tINMg0A2Vgjb1lkDRIBgKcuxCnjsOcZwOtN1F9f8AEccNmdPa3tEfzVLhkUZAXJJO
        DgY6DPXHeus0hPC/hWyhXXvFg1SCJ/tC6Xp+JlaU4yd3QdB3FTQkykORgDhR/X/PvVfTvDlhZ3ggsbhbuG3U/aL0cJNIPvCH
        PJRegb+I5OMYAx/7PtxcRQ28glWIEz3GcK7dwmeoHTPc57Yrr9A1vWPG2tx6rdW/2PTocx2dru/1S9Wdj/E5GOnTgcV//9k=
        """))

    /// A 16×16 HEIC (HEIF with HEVC, brands `heic mif1 heic miaf`; `vips heifsave --compression hevc`),
    /// which this machine's libheif decodes: refused all the same.
    static let heic: [UInt8] = Array(Base64.decode("""
        AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAa1tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAA
        AAAAAA5waXRtAAAAAAACAAAAEGlkYXQAAAAAABAAEAAAADhpbG9jAQAAAERAAAIAAQAAAAAAAAHRAAEAAAAAAAAAzwACAAEA
        AAAAAAAAAQAAAAAAAAAIAAAAOGlpbmYAAAAAAAIAAAAVaW5mZQIAAAEAAQAAaHZjMQAAAAAVaW5mZQIAAAAAAgAAZ3JpZAAA
        AADYaXBycAAAALZpcGNvAAAAdmh2Y0MBA3AAAAAAAAAAAAAe8AD8/fj4AAAPAyAAAQAYQAEMAf//A3AAAAMAkAAAAwAAAwAe
        ugJAIQABACpCAQEDcAAAAwCQAAADAAADAB6gIIEFluqumubgQEDAgAAAAwCAAAADAIQiAAEABkQBwXPBiQAAABRpc3BlAAAA
        AAAAAEAAAABAAAAAFGlzcGUAAAAAAAAAEAAAABAAAAAQcGl4aQAAAAADCAgIAAAAGmlwbWEAAAAAAAAAAgABAoECAAICA4QA
        AAAaaXJlZgAAAAAAAAAOZGltZwACAAEAAQAAANdtZGF0AAAAyygBrxMgiVGwiIueQuAEeDrk/GMgYZIoEPPWJW+AsClopqxT
        Rn56oenvmb8Yoe2RTQ7i7AYa+WUm3qIlGyvhdRdFZc1SuYJg94hZ5Zm14EqiZVwxLjdYB3bkxh0N/8MgHy+ggULNs+yXx/W3
        PgLvUFQAXq103dszhjjLNVuVglG42meqsOuiHdpvP6ft0HQs8JTnYUNMfar3n2qE6XXP0P0UVJJWiEEFmiA8GNbK2PJzmHP/
        VfqI0Fbw/0BwYyi4wCeZgujFUZyVcMnA
        """))

    /// ``heic`` with its brands rewritten to `avif` (`avif mif1 avif miaf`): sniffed as AVIF, refused
    /// once its header says the image is HEVC.
    static let hevcBrandedAVIF: [UInt8] = {
        var bytes = heic
        // The ftyp box: major brand at 8, compatible brands at 16 (mif1), 20 (heic), 24 (miaf).
        bytes.replaceSubrange(8..<12, with: Array("avif".utf8))
        bytes.replaceSubrange(20..<24, with: Array("avif".utf8))
        return bytes
    }()
}
