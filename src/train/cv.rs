//! `train --cv` in one call: the out-of-fold word-F1 of every pipeline to compare (decoding
//! variants, switch penalties), of the first pipeline with each of some rules switched off,
//! and optionally the learned threshold measured out of fold; all from the same fold models.

use std::path::Path;

use crate::pipeline::Options;
use crate::rules::Rule;
use crate::train::report::{column_means, cv_pages, learned_thresholds, CvPage, Learned};
use crate::train::report::{threshold_table, MeansRow, ThresholdFit, ThresholdTableRow};
use crate::train::{cross_validate_ablating, FitOptions, FoldBy, Folds, PageRecord};
use crate::train::{PageScores, ThresholdRows};
use crate::{Error, Limits, Result};

/// What [`cross_validate_plan`] measures.
#[derive(Debug, Clone)]
pub struct CvPlan {
    /// The pipelines scored, each with its column name, the first the one the other
    /// measurements use (see [`crate::train::report::cv_columns`]).
    pub columns: Vec<(String, Options)>,
    /// Size limits of each page.
    pub limits: Limits,
    /// How pages are held out.
    pub by: FoldBy,
    /// Groups of rules switched off from the first pipeline's rules, one group at a time (most
    /// often a single rule), each a column.
    pub ablate: Vec<Vec<Rule>>,
    /// The threshold model to fit and measure out of fold, if any.
    pub threshold: Option<ThresholdFit>,
}

/// What [`cross_validate_plan`] measured.
#[derive(Debug, Clone)]
pub struct CvReport {
    /// The folds the pages were held out by.
    pub folds: Folds,
    /// The column names of [`CvPlan::columns`].
    pub names: Vec<String>,
    /// Per column, every scored page's out-of-fold P/R/F1 (the same pages in the same order).
    pub all: Vec<PageScores>,
    /// Per scored page, its F1 at each threshold of the grid (empty without a threshold model).
    pub rows: ThresholdRows,
    /// The rule groups of [`CvPlan::ablate`].
    pub ablate: Vec<Vec<Rule>>,
    /// Per group of `ablate`, the pages' P/R/F1 with it switched off.
    pub ablated: Vec<PageScores>,
    /// The grid the threshold model chose from (empty without one).
    pub grid: Vec<f32>,
    /// The learned threshold, out of fold and fitted on every page.
    pub learned: Option<Learned>,
}

/// Cross-validates `fo` on `records` as `plan` says ([`cross_validate_ablating`], then
/// [`learned_thresholds`] when threshold rows were scored); `note` is told each threshold
/// tree.
///
/// # Errors
/// When a fold's model or a threshold tree cannot be fitted; [`Error::Invalid`] when a
/// threshold model is asked for with folds other than by site (it is fitted on site folds).
///
/// # Complexity
/// That of [`cross_validate_ablating`] and [`learned_thresholds`].
pub fn cross_validate_plan(
    records: &[PageRecord],
    fo: &FitOptions,
    plan: &CvPlan,
    note: &dyn Fn(&str),
) -> Result<CvReport> {
    if plan.threshold.is_some() && plan.by != FoldBy::Site {
        return Err(Error::Invalid(
            "the threshold model is cross-fitted by site: use folds by site".into(),
        ));
    }
    let folds = plan.by.folds(records);
    let opts: Vec<Options> = plan.columns.iter().map(|c| c.1.clone()).collect();
    let grid: Vec<f32> = plan.threshold.iter().flat_map(|f| f.grid.clone()).collect();
    let base = opts[0].rules;
    let sets: Vec<_> = plan
        .ablate
        .iter()
        .map(|g| base.without_all(g.iter().copied()))
        .collect();
    let (all, rows, ablated) =
        cross_validate_ablating(records, &folds, fo, &opts, &plan.limits, &grid, &sets)?;
    let learned = match (&plan.threshold, rows.is_empty()) {
        (Some(fit), false) => Some(learned_thresholds(
            records,
            &rows,
            fo,
            &opts[0],
            &plan.limits,
            fit,
            note,
        )?),
        _ => None,
    };
    Ok(CvReport {
        folds,
        names: plan.columns.iter().map(|c| c.0.clone()).collect(),
        all,
        rows,
        ablate: plan.ablate.clone(),
        ablated,
        grid,
        learned,
    })
}

impl CvReport {
    /// Each scored page's [`CvPage`] (see [`cv_pages`]).
    pub fn pages(&self, records: &[PageRecord]) -> Vec<CvPage> {
        let learned = self.learned.as_ref();
        cv_pages(
            records,
            &self.folds,
            &self.names,
            &self.all,
            &self.rows,
            learned,
            &self.grid,
        )
    }

    /// Writes each scored page's [`CvPage`] as a line of JSON to `path`.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn write_pages(&self, records: &[PageRecord], path: &Path) -> std::io::Result<()> {
        let mut out = String::new();
        for page in self.pages(records) {
            out += &serde_json::to_string(&page)?;
            out.push('\n');
        }
        std::fs::write(path, out)
    }

    /// Mean word-F1 per group, one column per pipeline ([`column_means`]).
    pub fn variant_means(&self, records: &[PageRecord]) -> Vec<MeansRow> {
        column_means(records, &self.all)
    }

    /// The column heads (`all rules`, then `without RULE[+RULE…]` per ablated group) and mean
    /// word-F1 per group of the first pipeline and of each ablation ([`column_means`]).
    pub fn ablation_means(&self, records: &[PageRecord]) -> (Vec<String>, Vec<MeansRow>) {
        let heads: Vec<String> = std::iter::once("all rules".to_string())
            .chain(self.ablate.iter().map(|g| {
                let names: Vec<&str> = g.iter().map(|r| r.name()).collect();
                format!("without {}", names.join("+"))
            }))
            .collect();
        let columns: Vec<PageScores> = std::iter::once(self.all[0].clone())
            .chain(self.ablated.iter().cloned())
            .collect();
        (heads, column_means(records, &columns))
    }

    /// The out-of-fold table by threshold ([`threshold_table`]) when a threshold was learned.
    pub fn threshold_table(&self, records: &[PageRecord]) -> Option<Vec<ThresholdTableRow>> {
        let l = self.learned.as_ref()?;
        Some(threshold_table(records, &self.rows, l, self.grid.len()))
    }
}
