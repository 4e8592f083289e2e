//! PNG copies of the SVG figures, rendered with resvg (text in the system's fonts; without
//! any font the text is left out and the rest is drawn).

use resvg::{tiny_skia, usvg};
use std::sync::Arc;

/// Renders SVG text to PNG files; loads the system's fonts once.
pub struct Renderer {
    options: usvg::Options<'static>,
}

impl Renderer {
    pub fn new() -> Self {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_system_fonts();
        // The figures ask for "sans-serif": map it to a font that is here.
        let sans = fonts
            .faces()
            .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
            .find(|name| name.contains("Sans") && !name.contains("Mono"));
        if let Some(family) = sans {
            fonts.set_sans_serif_family(family);
        }
        Renderer {
            options: usvg::Options {
                fontdb: Arc::new(fonts),
                ..usvg::Options::default()
            },
        }
    }

    /// The PNG bytes of `svg`, at twice the SVG's size for sharp text.
    pub fn render(&self, svg: &str) -> Result<Vec<u8>, String> {
        let tree = usvg::Tree::from_str(svg, &self.options).map_err(|e| e.to_string())?;
        let size = tree
            .size()
            .to_int_size()
            .scale_by(2.0)
            .ok_or("an empty figure")?;
        let mut pixmap =
            tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("a figure too large")?;
        resvg::render(
            &tree,
            tiny_skia::Transform::from_scale(2.0, 2.0),
            &mut pixmap.as_mut(),
        );
        pixmap.encode_png().map_err(|e| e.to_string())
    }
}
