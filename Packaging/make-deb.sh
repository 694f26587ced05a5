#!/bin/sh
# Builds the Debian package .build/deb/rolodeck_VERSION_ARCH.deb from the release build, with
# Debian's own tools: `make install` into a staging root, dpkg-shlibdeps for the libraries the
# binary links (Swift's runtime is linked in, so only Debian's libraries are named), dpkg-deb.
# Run by `make deb`, which builds the release binary first.
#
# DEB_MAINTAINER names who answers for the package. File dates and the changelog's date are
# SOURCE_DATE_EPOCH when set, else the last commit's time, so the same source gives the same
# package.
set -eu
cd "$(dirname "$0")/.."

binary=.build/release/rolodeck
version=$("$binary" --version | sed -n 's/^rolodeck \([^ ]*\).*/\1/p')
revision=$("$binary" --version | sed -n 's/^rolodeck [^ ]* (\(.*\))$/\1/p')
arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-Rolodeck developers <rolodeck@users.noreply.github.com>}
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

work=.build/deb
source=$work/source
root=$source/debian/rolodeck
rm -rf "$source"
mkdir -p "$root/DEBIAN"

make --no-print-directory install DESTDIR="$root" PREFIX=/usr \
    ZSH_COMPLETION_DIR=/usr/share/zsh/vendor-completions >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/rolodeck"
gzip -9n "$root/usr/share/man/man1/rolodeck.1"

docs=$root/usr/share/doc/rolodeck
mkdir -p "$docs"
cp Packaging/copyright "$docs/copyright"
{
    echo "rolodeck ($version) unstable; urgency=medium"
    echo
    echo "  * Release build${revision:+ of revision $revision}."
    echo
    echo " -- $maintainer  $(date -u -R -d "@$epoch")"
} | gzip -9n >"$docs/changelog.gz"

# dpkg-shlibdeps reads the package's name from a debian/control beside the staging root.
cat >"$source/debian/control" <<CONTROL
Source: rolodeck
Maintainer: $maintainer

Package: rolodeck
Architecture: any
CONTROL
depends=$(cd "$source" && dpkg-shlibdeps -O -e "$(pwd)/debian/rolodeck/usr/bin/rolodeck" | sed -n 's/^shlibs:Depends=//p')
# libvips is loaded with dlopen when a photo needs it (by its soname, libvips.so.42), so
# dpkg-shlibdeps does not see it.
depends="$depends, libvips42"

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<CONTROL
Package: rolodeck
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Section: web
Priority: optional
Description: static website generator for a contacts directory
 Rolodeck turns a store of contacts, groups and todos (JSON files, vCard 2.1
 to 4.0 files, iCalendar todos) into a browsable, searchable static website:
 a directory sectioned and sorted by the rules of its language, a page per
 contact, group pages, a todo page and a search box that needs no server.
 .
 Builds are atomic and safe to run from cron; watch and serve rebuild only
 what changed and preview the site with live reload.
CONTROL

(cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$epoch" {} +
chmod -R u=rwX,go=rX "$root"

package=$work/rolodeck_${version}_$arch.deb
SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$root" "$package" >/dev/null
echo "$package"
