# Abstract portrait silhouettes (a head and shoulders on a coloured ground), drawn here for the
# screenshots in docs/screenshots/photos-*.png: no third-party images. Run in a folder holding a
# copy of Examples/demo as site/; it writes site/store/photos/ and the contacts' photo fields.
import json, math, subprocess, sys
colours = [((224, 122, 95), (61, 64, 91)), ((129, 178, 154), (38, 70, 83)), ((242, 204, 143), (131, 56, 236)),
           ((142, 202, 230), (2, 48, 71)), ((255, 183, 3), (33, 158, 188)), ((230, 57, 70), (29, 53, 87)),
           ((168, 218, 220), (69, 123, 157)), ((244, 162, 97), (38, 70, 83)), ((233, 196, 106), (42, 157, 143))]
contacts = json.load(open("site/store/contacts.json"))
size = 256
for index, contact in enumerate(contacts[:40]):
    if index % 3 == 2:
        continue  # some keep their monogram
    ground, figure = colours[index % len(colours)]
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            head = (x - 128) ** 2 + (y - 100) ** 2 < (44 + index % 7) ** 2
            shoulders = ((x - 128) / 95.0) ** 2 + ((y - 250) / 80.0) ** 2 < 1
            shade = 1 - 0.25 * y / size
            colour = figure if head or shoulders else tuple(int(c * shade) for c in ground)
            row += bytes(colour)
        rows.append(bytes(row))
    ppm = "photo.ppm"
    with open(ppm, "wb") as f:
        f.write(b"P6 %d %d 255\n" % (size, size) + b"".join(rows))
    name = "%s.jpg" % contact["id"]
    subprocess.run(["vips", "jpegsave", ppm, "site/store/photos/" + name, "--Q", "85", "--strip"], check=True)
    contact["photo"] = "photos/" + name
json.dump(contacts, open("site/store/contacts.json", "w"), ensure_ascii=False, indent=1)
