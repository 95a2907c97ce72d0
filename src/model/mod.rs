//! The PageLevel classifier: gives each node a templateness score x ∈ [0, 1], either by the
//! paper's one logistic regression per area bucket on standardised features (the Basic
//! baseline), or by gradient-boosted trees over the same features ([`crate::model::boost`]), which
//! measure better and are what the embedded model holds.
//!
//! A model may stack a second forest over the first stage's scores around each node
//! ([`crate::model::stack`], `pagelevel train --stages 2`); [`Model::score_page`] runs both.
//!
//! The model is a versioned JSON file (`data/model.json`), embedded in the binary so that
//! `pagelevel` works with no files beside it; [`Model::from_json`] loads another one.
//! smartcore fits the regressions ([`fit_bucket`]); scoring computes the sigmoid from the
//! coefficients directly, since smartcore has no `predict_proba`.

pub mod boost;
pub mod math;
pub mod stack;
pub mod threshold;

use serde::{Deserialize, Serialize};

use crate::features::{f, FeatureMatrix, NAMES};
use crate::model::math::sigmoid;
use crate::{Error, Result};
use boost::Forest;
use stack::Stage2;

/// The model format's name, checked on load.
pub const FORMAT: &str = "pagelevel-model";
/// The model format's newest version, checked on load: version 4 files carry the optional
/// second stage ([`crate::model::stack`]); version 3 files the optional threshold part; version 2
/// files (neither) and version 1 files (regressions only) still load. Older builds refuse a
/// version 4 file with an error naming the version.
pub const VERSION: u32 = 4;
/// The version written for a model with a threshold part and no second stage.
pub const VERSION_THRESHOLD: u32 = 3;
/// The version written for a model without a threshold part, so older builds still read it.
pub const VERSION_WITHOUT_THRESHOLD: u32 = 2;
/// Number of area buckets.
pub const BUCKETS: usize = 4;

/// The model trained by `pagelevel train`, compiled into the binary.
pub const EMBEDDED_JSON: &str = include_str!("../../data/model.json");

/// Features given to the regressions through `ln(1 + v)`: counts and sizes spanning orders of
/// magnitude, where a linear model wants the logarithm.
pub(crate) const LOG_FEATURES: &[usize] = &[
    f::AREA,
    f::NUM_WORDS,
    f::ANCHOR_SIZE,
    f::TEXT_DENSITY,
    f::AVG_SENTENCE_LENGTH,
    f::PREV_NUM_WORDS,
    f::NEXT_NUM_WORDS,
    f::PREV_TEXT_DENSITY,
    f::NEXT_TEXT_DENSITY,
    f::LINKS_PER_WORD,
    f::DEPTH,
    f::SIBLING_RUN,
    f::SAME_TAG_SIBLINGS,
    f::PARAGRAPHS_PER_100_WORDS,
    f::IMAGES_PER_100_WORDS,
    f::FORM_CONTROLS,
    f::PAGE_WORDS,
    f::PAGE_PARAGRAPHS_PER_100_WORDS,
    f::PAGE_WORDS_OUTSIDE_COMMENTS,
];

/// One bucket's regression.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BucketModel {
    /// Per-feature mean of the transformed training features.
    pub mean: Vec<f64>,
    /// Per-feature standard deviation (1 where a feature is constant).
    pub std: Vec<f64>,
    /// Coefficient per standardised feature.
    pub coef: Vec<f64>,
    /// Intercept.
    pub intercept: f64,
    /// Training samples after class balancing.
    pub train_samples: usize,
    /// Validation accuracy at 0.5 (held-out sites), when measured.
    #[serde(default)]
    pub val_accuracy: Option<f64>,
    /// Validation ROC AUC (held-out sites), when measured.
    #[serde(default)]
    pub val_auc: Option<f64>,
}

/// A trained model: area-bucket edges and one regression per bucket.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Model {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`] with a threshold part, [`VERSION_WITHOUT_THRESHOLD`] without (or older).
    pub version: u32,
    /// Names of the features the regressions use, in column order (a subset of [`NAMES`]).
    pub features: Vec<String>,
    /// Indices of `features` into a feature row, resolved on load.
    #[serde(skip)]
    pub columns: Vec<usize>,
    /// Ascending area edges in px²: bucket k holds areas below `edges[k]`, the last the rest.
    pub bucket_edges: Vec<f64>,
    /// The regressions, one per bucket (empty when `boost` scores).
    #[serde(default)]
    pub buckets: Vec<BucketModel>,
    /// Gradient-boosted trees; when present they score every node and `buckets` is unused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boost: Option<Forest>,
    /// How the model was made (command, data), for the record.
    #[serde(default)]
    pub provenance: String,
    /// The learned page-level threshold ([`crate::model::threshold`]), used only when the pipeline
    /// is asked to (`SegmentOptions::learned_threshold`); absent from older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<crate::model::threshold::ThresholdModel>,
    /// The second stage of a stacked model ([`crate::model::stack`]): when present it rescores every
    /// scored node from its features and the first stage's scores around it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage2: Option<Stage2>,
}

impl Model {
    /// The embedded model.
    pub fn embedded() -> &'static Model {
        static MODEL: std::sync::OnceLock<Model> = std::sync::OnceLock::new();
        MODEL.get_or_init(|| {
            Model::from_json(EMBEDDED_JSON).expect("the embedded model is checked by the tests")
        })
    }

    /// Reads and checks the model JSON file at `path` (as [`Model::from_json`]).
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read, else as [`Model::from_json`].
    pub fn from_path(path: &std::path::Path) -> Result<Model> {
        let json = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_owned(),
            source,
        })?;
        Model::from_json(&json)
    }

    /// Parses and checks a model.
    ///
    /// # Errors
    /// [`Error::Model`] when the JSON is malformed, of another format or version, or its
    /// feature list or shapes do not match this build.
    pub fn from_json(json: &str) -> Result<Model> {
        let mut m: Model = serde_json::from_str(json).map_err(|e| Error::Model(e.to_string()))?;
        if m.format != FORMAT || !(1..=VERSION).contains(&m.version) {
            return Err(Error::Model(format!(
                "format {} v{} is not {FORMAT} v{VERSION}",
                m.format, m.version
            )));
        }
        m.columns = columns_of(&m.features)?;
        if let Some(t) = &m.threshold {
            t.check()?;
        }
        if let Some(s2) = &mut m.stage2 {
            if m.version < VERSION {
                return Err(Error::Model(format!(
                    "a second stage needs format version {VERSION}, not {}",
                    m.version
                )));
            }
            s2.resolve()?;
        }
        let k = m.columns.len();
        if let Some(forest) = &mut m.boost {
            forest
                .resolve(&m.columns)
                .map_err(|e| Error::Model(format!("boosted trees: {e}")))?;
            return Ok(m);
        }
        if m.buckets.len() != m.bucket_edges.len() + 1 {
            return Err(Error::Model(format!(
                "{} buckets for {} edges",
                m.buckets.len(),
                m.bucket_edges.len()
            )));
        }
        for (j, b) in m.buckets.iter().enumerate() {
            if b.mean.len() != k || b.std.len() != k || b.coef.len() != k {
                return Err(Error::Model(format!("bucket {j}: wrong number of values")));
            }
        }
        Ok(m)
    }

    /// The bucket of a node with estimated area `area`.
    pub fn bucket(&self, area: f32) -> usize {
        bucket_of(&self.bucket_edges, area as f64)
    }

    /// The first stage's templateness score of one feature row: the sigmoid of the trees'
    /// margin, or of the row's bucket's linear model (a second stage needs the page around
    /// the row: [`Model::score_page`]).
    pub fn score(&self, row: &[f32]) -> f32 {
        if let Some(forest) = &self.boost {
            return sigmoid(forest.margin(row) as f64) as f32;
        }
        let b = &self.buckets[self.bucket(row[f::AREA])];
        let mut z = b.intercept;
        for (j, &k) in self.columns.iter().enumerate() {
            z += b.coef[j] * (transform(k, row[k]) - b.mean[j]) / b.std[j];
        }
        sigmoid(z) as f32
    }

    /// The final score of every node of the smoothing tree (`scored`, closed under parents,
    /// as [`crate::segment::scored_mask`] makes it, and `tree`, its compact form from
    /// [`stack::Tree::from_scored`]); the others get NaN. One stage: as
    /// [`Model::score_all`]. Two: the second stage rescores the scored nodes from their rows
    /// and the stacked features of the first stage's scores.
    ///
    /// # Complexity
    /// O(n · COUNT) and the forests' O(trees · depth) a scored node, plus O(m log m) for the
    /// m scored nodes' stacked features.
    pub fn score_page(
        &self,
        pf: &crate::features::PageFeatures,
        scored: &[bool],
        tree: &stack::Tree,
    ) -> Vec<f32> {
        let x = self.score_all(&pf.matrix, scored);
        let Some(s2) = &self.stage2 else {
            return x;
        };
        let s1: Vec<f32> = tree.nodes.iter().map(|&i| x[i as usize]).collect();
        let z = stack::features(tree, &s1);
        let mut out = vec![f32::NAN; x.len()];
        s2.score_into(
            tree,
            |c| pf.matrix.row(tree.nodes[c] as usize),
            &z,
            |c, v| out[tree.nodes[c] as usize] = v,
        );
        out
    }

    /// Scores every node whose `scored[i]` is true with the first stage only; the others get
    /// NaN.
    ///
    /// # Complexity
    /// O(n · COUNT).
    pub fn score_all(&self, matrix: &FeatureMatrix, scored: &[bool]) -> Vec<f32> {
        if let Some(forest) = &self.boost {
            let mut out = vec![f32::NAN; matrix.len()];
            let idx: Vec<usize> = (0..matrix.len()).filter(|&i| scored[i]).collect();
            let mut z = [0f32; boost::LANES];
            let mut scratch = Vec::new();
            for chunk in idx.chunks(boost::LANES) {
                let mut rows: [&[f32]; boost::LANES] = [&[]; boost::LANES];
                for (r, &i) in rows.iter_mut().zip(chunk) {
                    *r = matrix.row(i);
                }
                forest.margins(&rows[..chunk.len()], &mut z, &mut scratch);
                for (&i, &zi) in chunk.iter().zip(&z) {
                    out[i] = sigmoid(zi as f64) as f32;
                }
            }
            return out;
        }
        (0..matrix.len())
            .map(|i| {
                if scored[i] {
                    self.score(matrix.row(i))
                } else {
                    f32::NAN
                }
            })
            .collect()
    }
}

/// Resolves feature names to row indices.
///
/// # Errors
/// [`Error::Model`] for a name this build does not compute.
pub(crate) fn columns_of(names: &[String]) -> Result<Vec<usize>> {
    names
        .iter()
        .map(|n| {
            NAMES.iter().position(|m| m == n).ok_or_else(|| {
                Error::Model(format!(
                    "unknown feature {n:?}; retrain with `pagelevel train`"
                ))
            })
        })
        .collect()
}

/// The bucket index of `area` for ascending `edges`.
pub(crate) fn bucket_of(edges: &[f64], area: f64) -> usize {
    edges.iter().position(|&e| area < e).unwrap_or(edges.len())
}

/// The column transform shared by training and scoring.
#[inline]
pub(crate) fn transform(k: usize, v: f32) -> f64 {
    let v = v as f64;
    if LOG_FEATURES.contains(&k) {
        v.max(0.0).ln_1p()
    } else {
        v
    }
}

/// Fits one bucket's regression on transformed rows `x` (each `COUNT` long) with labels `y`
/// (true = template): standardises, balances the classes by deterministic down-sampling of
/// the larger class (at most `max_per_class` each), and fits smartcore's L2-regularised logistic regression.
///
/// # Errors
/// [`Error::Model`] when a class is missing or smartcore fails.
///
/// # Complexity
/// O(s · COUNT · iterations) for s samples.
pub fn fit_bucket(
    x: &[Vec<f64>],
    y: &[bool],
    alpha: f64,
    seed: u64,
    max_per_class: usize,
) -> Result<BucketModel> {
    let dim = x.first().map_or(0, Vec::len);
    use smartcore::linalg::basic::arrays::Array;
    use smartcore::linalg::basic::matrix::DenseMatrix;
    use smartcore::linear::logistic_regression::{
        LogisticRegression, LogisticRegressionParameters,
    };

    let pos: Vec<usize> = (0..y.len()).filter(|&i| y[i]).collect();
    let neg: Vec<usize> = (0..y.len()).filter(|&i| !y[i]).collect();
    if pos.is_empty() || neg.is_empty() {
        return Err(Error::Model(format!(
            "a bucket needs both classes ({} template, {} content)",
            pos.len(),
            neg.len()
        )));
    }
    let n = pos.len().min(neg.len()).min(max_per_class);
    let mut rows: Vec<usize> = sample(&pos, n, seed);
    rows.extend(sample(&neg, n, seed ^ 0x9e37_79b9_7f4a_7c15));
    rows.sort_unstable();

    let mut mean = vec![0.0; dim];
    let mut std = vec![0.0; dim];
    for &r in &rows {
        for k in 0..dim {
            mean[k] += x[r][k];
        }
    }
    for m in &mut mean {
        *m /= rows.len() as f64;
    }
    for &r in &rows {
        for k in 0..dim {
            std[k] += (x[r][k] - mean[k]).powi(2);
        }
    }
    for s in &mut std {
        *s = (*s / rows.len() as f64).sqrt();
        if *s < 1e-9 {
            *s = 1.0;
        }
    }
    let data: Vec<Vec<f64>> = rows
        .iter()
        .map(|&r| (0..dim).map(|k| (x[r][k] - mean[k]) / std[k]).collect())
        .collect();
    let labels: Vec<i32> = rows.iter().map(|&r| y[r] as i32).collect();
    let matrix = DenseMatrix::from_2d_vec(&data).map_err(|e| Error::Model(e.to_string()))?;
    let params = LogisticRegressionParameters::default().with_alpha(alpha);
    let lr = LogisticRegression::fit(&matrix, &labels, params)
        .map_err(|e| Error::Model(e.to_string()))?;
    let coef: Vec<f64> = (0..dim).map(|k| *lr.coefficients().get((0, k))).collect();
    let intercept = *lr.intercept().get((0, 0));
    Ok(BucketModel {
        mean,
        std,
        coef,
        intercept,
        train_samples: rows.len(),
        val_accuracy: None,
        val_auc: None,
    })
}

/// `n` of `items`, chosen by a seeded xorshift shuffle (deterministic for a given seed).
fn sample(items: &[usize], n: usize, seed: u64) -> Vec<usize> {
    let mut v = items.to_vec();
    let mut s = seed | 1;
    for i in (1..v.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.swap(i, (s % (i as u64 + 1)) as usize);
    }
    v.truncate(n);
    v
}

/// ROC AUC of `scores` for labels `y` (probability that a random positive outranks a random
/// negative; ties count half). 0.5 when a class is missing.
///
/// # Complexity
/// O(s log s).
pub fn auc(scores: &[f64], y: &[bool]) -> f64 {
    let mut idx: Vec<usize> = (0..scores.len()).collect();
    idx.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
    let (mut rank_sum, mut pos) = (0.0, 0usize);
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && scores[idx[j + 1]] == scores[idx[i]] {
            j += 1;
        }
        let avg_rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            if y[k] {
                rank_sum += avg_rank;
                pos += 1;
            }
        }
        i = j + 1;
    }
    let neg = scores.len() - pos;
    if pos == 0 || neg == 0 {
        return 0.5;
    }
    (rank_sum - (pos * (pos + 1)) as f64 / 2.0) / (pos * neg) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auc_by_hand() {
        assert_eq!(
            auc(&[0.1, 0.4, 0.35, 0.8], &[false, false, true, true]),
            0.75
        );
        assert_eq!(auc(&[0.5, 0.5], &[false, true]), 0.5);
        assert_eq!(auc(&[1.0, 2.0], &[false, true]), 1.0);
    }

    #[test]
    fn buckets_by_edges() {
        let edges = [1e4, 1e5, 1e6];
        assert_eq!(bucket_of(&edges, 2000.0), 0);
        assert_eq!(bucket_of(&edges, 1e4), 1);
        assert_eq!(bucket_of(&edges, 5e5), 2);
        assert_eq!(bucket_of(&edges, 1e7), 3);
    }

    #[test]
    fn embedded_model_loads() {
        // The embedded model is the boosted one; batch scoring must equal one-row scoring.
        let m = Model::embedded();
        assert!(m.boost.is_some());
        let rows: Vec<Vec<f32>> = (0..11)
            .map(|i| {
                (0..crate::features::COUNT)
                    .map(|k| ((i * 7 + k * 3) % 13) as f32 / 4.0)
                    .collect()
            })
            .collect();
        let data: Vec<f32> = rows.concat();
        let matrix = FeatureMatrix::from_data(data);
        let all = m.score_all(&matrix, &[true; 11]);
        for (i, row) in rows.iter().enumerate() {
            let s = m.score(row);
            assert!((0.0..=1.0).contains(&s));
            assert_eq!(all[i], s, "row {i}");
        }
    }

    #[test]
    fn fit_separates_a_clear_signal() {
        // Template iff link density > 0.5, with noise in another feature.
        let mut x = Vec::new();
        let mut y = Vec::new();
        for i in 0..400 {
            let mut row = vec![0.0; crate::features::COUNT];
            let ld = (i % 100) as f64 / 100.0;
            row[f::LINK_DENSITY] = ld;
            row[f::NUM_WORDS] = ((i * 37) % 11) as f64;
            x.push(row);
            y.push(ld > 0.5);
        }
        let b = fit_bucket(&x, &y, 0.0, 7, usize::MAX).unwrap();
        assert!(b.coef[f::LINK_DENSITY] > 1.0, "{:?}", b.coef);
        let scores: Vec<f64> = x
            .iter()
            .map(|r| {
                let z: f64 = (0..crate::features::COUNT)
                    .map(|k| b.coef[k] * (r[k] - b.mean[k]) / b.std[k])
                    .sum();
                sigmoid(z + b.intercept)
            })
            .collect();
        assert!(auc(&scores, &y) > 0.99);
    }
}
